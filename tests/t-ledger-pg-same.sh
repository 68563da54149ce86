#!/bin/sh
# t-ledger-pg-same.sh — the whole command set on an SQLite ledger and on a
# PostgreSQL one (tests/lib-pg.sh starts a real server; ledger/replica.h):
# every `ledger` command and `report` is run on both with the same records,
# and stdout, stderr (the ledger's name alone normalised) and the exit code
# must agree byte for byte, the report files too; then the server's tables
# must hold the SQLite ledger's rows, every column, REALs to the bit; a cold
# replica (removed) gives the same answers as the warm one.
. "$ROOT/tests/lib.sh"
. "$ROOT/tests/lib-pg.sh"
need jq jq
need sqlite3 sqlite3
pg_start
export RUNLEDGER_NOW=2026-03-20T12:00:00Z LEDGER_WHO=alice
Q=$FIXTURES/query A=$FIXTURES/audit I=$FIXTURES/ingest R=$FIXTURES/report

# The ledger's name (lite.db, the URL) and ingest's clock (ingested_at, in JSON
# and in show's padded text column) are
# what may differ; nothing else is touched.
norm() {
	awk -v u="$PG_URL" '{ while ((i = index($0, u)) > 0) $0 = substr($0, 1, i - 1) "LEDGER" substr($0, i + length(u))
		while ((i = index($0, "lite.db")) > 0) $0 = substr($0, 1, i - 1) "LEDGER" substr($0, i + 7); print }' |
		sed -E 's/(ingested_at[^0-9]{0,40})[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/\1T/g'
}
n=0
# same PROGRAM ARGS...: run on both ledgers, compare code, stdout, stderr
same() {
	prog=$1; shift
	n=$((n + 1))
	"$prog" --db lite.db "$@" >l.out 2>l.err; lc=$?
	"$prog" --db "$PG_URL" "$@" >p.out 2>p.err; pc=$?
	id="pg-same-$n-$(basename "$prog")-$1"
	norm <l.out >l.norm; norm <p.out >p.norm; norm <l.err >l.enorm; norm <p.err >p.enorm
	if [ "$lc" != "$pc" ]; then
		not_ok "$id" "$* : the same exit code" "SQLite $lc, PostgreSQL $pc" "PG stderr: $(head -c 600 p.err)"
	elif ! cmp -s l.norm p.norm; then
		not_ok "$id" "$* : the same stdout" "$(diff l.norm p.norm | head -20)"
	elif ! cmp -s l.enorm p.enorm; then
		not_ok "$id" "$* : the same stderr" "$(diff l.enorm p.enorm | head -20)"
	else
		ok "$id" "$* : same exit ($lc), stdout ($(wc -c <l.out) bytes), stderr ($(wc -c <l.err) bytes)"
	fi
}

# ---- writes ---------------------------------------------------------------
# (init as tsv: a table pads its columns to the ledger's name, which differs)
same "$LEDGER" init --format tsv
same "$LEDGER" ingest "$Q/runs.jsonl"
same "$LEDGER" ingest --hardware 'RTX 3090' --started-at 2026-03-18T00:00:00Z "$A/seed-results.tsv"
same "$LEDGER" ingest --hardware 'RTX 3090' --started-at 2026-03-18T06:00:00Z "$A/session-results.tsv"
same "$LEDGER" ingest "$A/seed.jsonl"
same "$LEDGER" ingest "$R/runs.jsonl"
same "$LEDGER" ingest --hardware 'Apple M3 Max' --campaign hsg --started-at 2026-03-10T00:00:00Z "$FIXTURES/real/hsgngr-macos-results.tsv"
same "$LEDGER" ingest "$I/run.log" "$I/crash.log" "$I/fail.log" "$I/killed.log" "$I/startup-crash.log"
same "$LEDGER" ingest "$I/arh-results.jsonl" "$I/results.tsv" "$I/results-wide.tsv"
printf '{"not a record": 1}\n{broken\n' >bad.jsonl
same "$LEDGER" ingest bad.jsonl
same "$LEDGER" ingest "$Q/runs.jsonl" # again: all present
# a running record, then its final record (supersede in place)
jq -c '.run_id = "sup-1" | .status = "running" | del(.finished_at) | del(.metrics)' "$I/single.json" >running.json
jq -c '.run_id = "sup-1"' "$I/single.json" >final.json
same "$LEDGER" ingest running.json
same "$LEDGER" ingest final.json
# text that COPY's format escapes: tab, newline, CR, backslash, \N
jq -c '.run_id = "esc-1" | .description = "tab\there back\\slash \\N new\nline cr\rend"' "$I/single.json" >esc.json
same "$LEDGER" ingest esc.json
same "$LEDGER" campaign add "$A/campaign.json"
printf '{"name":"compile-kernel-efficiency","metric":"val_bpb","direction":"min","hardware":"RTX 3090","baseline":"rtx-base","search_space":["impl.*"],"record_budget":10}\n' >camp.json
same "$LEDGER" campaign add camp.json
printf '{"name":"hsg","hardware":"M3 Max","baseline":"first valid run","search_space":["model.*","optim.*","sched.*","train.*"],"record_budget":30}\n' >hsg.json
same "$LEDGER" campaign add hsg.json
same "$LEDGER" campaign assign qwen-compile h100-d9 h100-d12
same "$LEDGER" campaign assign qwen-compile h100-d9
same "$LEDGER" note h100-d12 'OOM: "batch 64" | try 32'
same "$LEDGER" tag h100-d12 reviewed=yes owner=bob
same "$LEDGER" decide h100-d9 discard
same "$LEDGER" archive a100-base
same "$LEDGER" note no-such-run hello
same "$LEDGER" reinfer --dry-run
same "$LEDGER" reinfer

# ---- reads ----------------------------------------------------------------
same "$LEDGER" init --format json
for f in table tsv csv json md; do same "$LEDGER" query --format $f; done
same "$LEDGER" query --archived --format tsv
same "$LEDGER" query --where 'val_bpb < 1.1' --format tsv
same "$LEDGER" show h100-d12
same "$LEDGER" show --format json h100-d12
same "$LEDGER" show sup-1
same "$LEDGER" show --format json esc-1
same "$LEDGER" show no-such-run
same "$LEDGER" diff h100-d9 h100-d12
same "$LEDGER" diff --all h100-d9 h100-d12
same "$LEDGER" compare h100-d9 h100-d12
same "$LEDGER" compare --all --format json
same "$LEDGER" frontier
same "$LEDGER" frontier --by tier --format json
same "$LEDGER" frontier --all
same "$LEDGER" repeats
same "$LEDGER" repeats --min-n 1 --format json
same "$LEDGER" summary
same "$LEDGER" summary --format json
same "$LEDGER" audit
same "$LEDGER" audit --campaign qwen-compile --format json
same "$LEDGER" audit --campaign hsg --coverage
same "$LEDGER" quarantine
same "$LEDGER" quarantine --format json
same "$LEDGER" campaign list
same "$LEDGER" campaign show qwen-compile
same "$LEDGER" export
same "$LEDGER" variables
same "$LEDGER" query --bogus

# ---- reports, files and all -----------------------------------------------
report_same() { # NAME ARGS...: a report into out-l and out-p, compared
	name=$1; shift
	n=$((n + 1))
	"$REPORT" --db lite.db "$@" --out "out-l-$name" >l.out 2>l.err; lc=$?
	"$REPORT" --db "$PG_URL" "$@" --out "out-p-$name" >p.out 2>p.err; pc=$?
	for f in l.out p.out l.err p.err; do norm <$f >$f.n; done
	sed "s|out-p-$name|out-l-$name|g" p.out.n >p.out.m; sed "s|out-p-$name|out-l-$name|g" p.err.n >p.err.m
	files=$(cd "out-l-$name" 2>/dev/null && find . -type f | sort)
	pfiles=$(cd "out-p-$name" 2>/dev/null && find . -type f | sort)
	bad=
	for f in $files; do norm <"out-l-$name/$f" >x.l; norm <"out-p-$name/$f" >x.p 2>/dev/null
		cmp -s x.l x.p || bad="$bad $f"; done
	if [ "$lc" != "$pc" ]; then not_ok "pg-same-$n-report-$name" "report $*: the same exit code" "SQLite $lc, PostgreSQL $pc" "$(head -c 400 p.err)"
	elif ! cmp -s l.out.n p.out.m || ! cmp -s l.err.n p.err.m; then
		not_ok "pg-same-$n-report-$name" "report $*: the same stdout and stderr" "$(diff l.out.n p.out.m; diff l.err.n p.err.m)"
	elif [ "$files" != "$pfiles" ] || [ -z "$files" ]; then
		not_ok "pg-same-$n-report-$name" "report $*: the same files" "$(printf '%s\n' "$files" | head -5)" "$(printf '%s\n' "$pfiles" | head -5)"
	elif [ -n "$bad" ]; then
		not_ok "pg-same-$n-report-$name" "report $*: the same file contents" "differ:$bad"
	else
		ok "pg-same-$n-report-$name" "report $*: same exit ($lc), output, and $(printf '%s\n' "$files" | wc -l) files byte for byte"
	fi
}
report_same daily daily --date 2026-03-16
report_same daily-18 daily --date 2026-03-18 --no-charts
report_same campaign campaign --campaign compile-kernel-efficiency
report_same campaign-hsg campaign --campaign hsg --no-charts
report_same daily index # the index of the day above, in its directory
expect_match pg-same-html "the daily report wrote HTML" "$(ls out-p-daily)" '\.html$'

# ---- the server's tables hold the SQLite ledger's rows ----------------------
pgtype() { case "$1" in INTEGER) echo bigint ;; REAL) echo float8 ;; *) echo text ;; esac; }
for t in runs changes quarantine campaigns campaign_runs annotations; do
	cols=$(sql lite.db "SELECT group_concat(name, ', ') FROM pragma_table_info('$t') WHERE name <> 'ingested_at'")
	# each value as SQLite's quote() (a REAL to the last bit), cast to the server's type
	expr=$(sql lite.db "SELECT group_concat('quote(' || name || ') || ''::' ||
		CASE type WHEN 'INTEGER' THEN 'bigint' WHEN 'REAL' THEN 'float8' ELSE 'text' END || '''', ' || '','' || ')
		FROM pragma_table_info('$t') WHERE name <> 'ingested_at'")
	sql lite.db "SELECT group_concat('(' || $expr || ')', ',') FROM $t" >vals.sql
	nl=$(sql lite.db "SELECT count(*) FROM $t")
	if [ "$nl" -eq 0 ]; then
		expect_eq "pg-same-rows-$t" "$t: empty on both" 0 "$(pg_sql "SELECT count(*) FROM $t")"
		continue
	fi
	{ printf 'CREATE TEMP TABLE lite AS SELECT * FROM (VALUES '; cat vals.sql; printf ') v;\n'
	  printf 'SELECT (SELECT count(*) FROM %s), (SELECT count(*) FROM (SELECT %s FROM %s EXCEPT ALL SELECT * FROM lite) d),' "$t" "$cols" "$t"
	  printf ' (SELECT count(*) FROM (SELECT * FROM lite EXCEPT ALL SELECT %s FROM %s) d);\n' "$cols" "$t"; } >cmp.sql
	got=$(psql -X -q -A -t -F '	' -v ON_ERROR_STOP=1 -h "$PG_SOCKDIR" -p "$PG_PORT" -U postgres -d ledger -f cmp.sql 2>&1)
	expect_eq "pg-same-rows-$t" "$t: the server's $nl rows are the SQLite ledger's, every column" \
		"$nl	0	0" "$got"
done

# ---- a cold replica answers the same ----------------------------------------
"$LEDGER" --db "$PG_URL" query --format json >warm.json
rm -rf "$RUNLEDGER_CACHE_DIR"
expect_code pg-same-cold "a query with no replica (made from the server's tables)" 0 "$LEDGER" --db "$PG_URL" query --format json
expect_eq pg-same-cold-out "answers as the warm one" "$(cat warm.json)" "$out"
same "$LEDGER" export
report_same daily-cold daily --date 2026-03-16

# ---- a role that may only SELECT runs every read command and report -------
pg_sql "CREATE ROLE reader LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader" >/dev/null
RURL=$(printf '%s' "$PG_URL" | sed 's|user=postgres|user=reader|')
reads="query|query --archived|show h100-d12|diff h100-d9 h100-d12|compare h100-d9 h100-d12|frontier|repeats|summary|audit|audit --campaign hsg|quarantine|campaign list|campaign show qwen-compile|export|reinfer --dry-run|init --format json|check"
bad=
IFS_=$IFS; IFS='|'
for c in $reads; do
	IFS=$IFS_
	set -- $c
	"$LEDGER" --db "$PG_URL" --format tsv "$@" >own.out 2>own.err; oc=$?
	RUNLEDGER_CACHE_DIR=$PWD/reader-cache "$LEDGER" --db "$RURL" --format tsv "$@" >rd.out 2>rd.err; rc=$?
	sed "s|user=reader|user=postgres|g" rd.out >rd.norm
	{ [ "$oc" = "$rc" ] && cmp -s own.out rd.norm; } || bad="$bad [$c: exit $rc, $(head -c 200 rd.err)]"
	IFS='|'
done
IFS=$IFS_
expect_eq pg-same-reader "a SELECT-only role runs every read command as the owner does" "" "$bad"
for r in "daily --date 2026-03-16" "campaign --campaign compile-kernel-efficiency" ; do
	set -- $r
	expect_code "pg-same-reader-report-$1" "and report $1" 0 env RUNLEDGER_CACHE_DIR="$PWD/reader-cache" \
		"$REPORT" --db "$RURL" "$@" --out "reader-$1"
	owner=out-p-$([ "$1" = daily ] && echo daily-cold || echo campaign)
	diffs=$( (cd "$owner" && find . -type f) | while read -r f; do
		sed 's|user=reader|user=postgres|g' "reader-$1/$f" 2>/dev/null | cmp -s - "$owner/$f" || echo "$f"; done)
	expect_eq "pg-same-reader-report-$1-files" "with the owner's files" "" "$diffs"
done
expect_code pg-same-reader-write "its write commands fail" 3 env RUNLEDGER_CACHE_DIR="$PWD/reader-cache" "$LEDGER" --db "$RURL" note h100-d12 "from the reader"
expect_match pg-same-reader-write-msg "with permission denied (SQLSTATE 42501)" "$err" "permission denied for table annotations.*42501"
expect_code pg-same-reader-after "and its replica holds nothing of it" 0 env RUNLEDGER_CACHE_DIR="$PWD/reader-cache" "$LEDGER" --db "$RURL" --format tsv show h100-d12
expect_no_match pg-same-reader-after-none "(no such note)" "$out" "from the reader"

# a cache directory that cannot be made: said, with what to do
: >notadir
expect_code pg-same-cache-bad "a replica directory under a plain file" 3 env RUNLEDGER_CACHE_DIR="$PWD/notadir/r" "$LEDGER" --db "$PG_URL" query
expect_match pg-same-cache-bad-msg "names the directory and why" "$err" \
	"cannot make the directory '.*/notadir/r' for its local replica: Not a directory"
expect_match pg-same-cache-bad-hint "and what to do" "$err" "hint: set RUNLEDGER_CACHE_DIR to a directory this user may write"
