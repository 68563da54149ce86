#!/bin/sh
# t-ledger-pg-writers.sh — many writers on one PostgreSQL ledger
# (ledger/replica.h): 8 ingests as separate processes, four with a replica
# each (four machines) and four sharing one (one machine), with distinct and
# shared records, while readers (query, report daily) run: the server holds
# exactly the distinct set, each shared run new exactly once, every replica
# agrees; a writer killed in the middle leaves nothing half-written, on the
# server or in its replica; push then export round-trips a ledger.
. "$ROOT/tests/lib.sh"
. "$ROOT/tests/lib-pg.sh"
need jq jq
need sqlite3 sqlite3
pg_start
export RUNLEDGER_NOW=2026-03-20T12:00:00Z LEDGER_WHO=agent
S=$FIXTURES/ingest/single.json
"$LEDGER" --db "$PG_URL" init >/dev/null

# ---- the records: per writer 3 files of 10 own runs and 5 shared ones -------
# (shared: the same record in every writer's files, so each must be new once)
mk() { # FILE RUN_ID...: one record per run_id, each its own val_bpb
	f=$1; shift
	jq -c '. as $r | $ARGS.positional[] as $id | $r | .run_id = $id | .description = ("run " + $id)
		| .metrics.val_bpb = (1 + (($id | explode | add) % 1000) / 10000)' --args "$@" <"$S" >"$f"
}
for w in 1 2 3 4 5 6 7 8; do
	for k in 1 2 3; do
		ids=
		for j in 1 2 3 4 5 6 7 8 9 10; do ids="$ids w$w-f$k-r$j"; done
		for j in 1 2 3 4 5; do ids="$ids shared-f$k-r$j"; done
		mk "w$w-$k.jsonl" $ids
	done
done
distinct=$((8 * 30 + 15))

# ---- 8 writers and 2 readers at once --------------------------------------
mkdir -p m1 m2 m3 m4 shared rd
for w in 1 2 3 4 5 6 7 8; do
	case $w in [1234]) cache=$PWD/m$w ;; *) cache=$PWD/shared ;; esac
	( for k in 1 2 3; do
		RUNLEDGER_CACHE_DIR=$cache "$LEDGER" --db "$PG_URL" --format tsv ingest "w$w-$k.jsonl" || exit 1
	  done ) >"w$w.out" 2>"w$w.err" &
	eval "pid$w=\$!"
done
( i=0; while [ $i -lt 6 ]; do
	RUNLEDGER_CACHE_DIR=$PWD/rd "$LEDGER" --db "$PG_URL" --format tsv query >"q$i.out" 2>"q$i.err" || { echo "query $i failed" >&2; exit 1; }
	i=$((i + 1)); done ) >reader1.log 2>&1 & r1=$!
( i=0; while [ $i -lt 3 ]; do
	RUNLEDGER_CACHE_DIR=$PWD/rd "$REPORT" --db "$PG_URL" daily --date 2026-03-16 --no-charts --out "rep$i" >"rep$i.out" 2>"rep$i.err" || { echo "report $i failed" >&2; exit 1; }
	i=$((i + 1)); done ) >reader2.log 2>&1 & r2=$!
codes=
for w in 1 2 3 4 5 6 7 8; do eval "wait \$pid$w"; codes="$codes $?"; done
wait $r1; rq=$?; wait $r2; rr=$?
expect_eq pg-writers-exit "the 8 writers succeed" " 0 0 0 0 0 0 0 0" "$codes"
[ "$codes" = " 0 0 0 0 0 0 0 0" ] || cat w*.err | head -20 | sed 's/^/# /'
expect_eq pg-writers-noerr "and say nothing on stderr but that they waited" "" \
	"$(cat w*.err | grep -v "^ledger: PostgreSQL ledger '.*': waiting for its write lock, held by another writer")"
expect_eq pg-readers-exit "query and report daily ran meanwhile, all succeeding" "0 0" "$rq $rr"
[ "$rq $rr" = "0 0" ] && : || cat reader*.log q*.err rep*.err 2>/dev/null | head -10 | sed 's/^/# /'
expect_eq pg-writers-count "the server holds exactly the distinct set" "$distinct $distinct" \
	"$(pg_sql "SELECT count(*), count(DISTINCT run_id) FROM runs" | tr '\t' ' ')"
expect_eq pg-writers-own "every writer's own runs, each once" 240 \
	"$(pg_sql "SELECT count(*) FROM runs WHERE run_id LIKE 'w%'")"
new_total=$(cat w*.out | awk -F'\t' '$1 != "file" { n += $3 } END { print n }')
present_total=$(cat w*.out | awk -F'\t' '$1 != "file" { n += $4 } END { print n }')
expect_eq pg-writers-new "between them the writers stored each run new once" "$distinct" "$new_total"
expect_eq pg-writers-present "and found each shared run present in the other 7" "$((15 * 7))" "$present_total"
expect_eq pg-writers-log "one change log entry per file" 24 "$(pg_sql "SELECT count(*) FROM ledger_log")"
expect_eq pg-writers-ids "ids 1..N, none twice (the server's, through the replicas)" "1 $distinct $distinct" \
	"$(pg_sql "SELECT min(id), max(id), count(DISTINCT id) FROM runs" | tr '\t' ' ')"
# a reader sees whole files only: each writer's file adds 10 own runs and
# the first to store a file k its 5 shared ones, so any count is 10a + 5b
bad=
for f in q*.out; do
	rows=$(($(wc -l <"$f") - 1)); [ "$rows" -lt 0 ] && rows=0
	[ $((rows % 5)) -eq 0 ] && [ "$rows" -le "$distinct" ] || bad="$bad $f:$rows"
done
expect_eq pg-readers-whole "every query saw whole files (a multiple of 5 runs), never a part" "" "$bad"
# every replica agrees with the server and each other
server_runs=$(pg_sql "SELECT run_id FROM runs ORDER BY id")
for c in m1 m2 m3 m4 shared rd; do
	RUNLEDGER_CACHE_DIR=$PWD/$c "$LEDGER" --db "$PG_URL" --format json query >"all-$c.json"
	got=$(sqlite3 -batch -noheader "$c"/pg-*.db "SELECT run_id FROM runs ORDER BY id")
	expect_eq "pg-writers-replica-$c" "replica $c holds the server's runs in its order" "$server_runs" "$got"
done
expect_eq pg-writers-same-answers "and every replica answers a query alike" 1 \
	"$(for c in m1 m2 m3 m4 shared rd; do md5sum <"all-$c.json"; done | sort -u | wc -l)"

# ---- a writer killed in the middle --------------------------------------------
jq -c '. as $r | range(4000) as $i | $r | .run_id = "big-\($i)" | .metrics.val_bpb = (1 + $i / 100000)' "$S" >big.jsonl
before=$(pg_sql "SELECT count(*) FROM runs")
log_before=$(pg_sql "SELECT count(*) FROM ledger_log")
kill_at() { # WHAT SQL-CONDITION: an ingest of big.jsonl killed once the server shows it
	RUNLEDGER_CACHE_DIR=$PWD/m1 "$LEDGER" --db "$PG_URL" ingest big.jsonl >kill.out 2>kill.err & kp=$!
	t=0
	while [ "$(pg_sql "$2")" = 0 ] && [ $t -lt 600 ] && kill -0 $kp 2>/dev/null; do sleep 0.05; t=$((t + 1)); done
	seen=$(pg_sql "$2")
	kill -9 $kp 2>/dev/null; wait $kp 2>/dev/null
	expect_eq "pg-kill-$1-seen" "(the writer was caught $1)" 1 "$seen"
	expect_eq "pg-kill-$1" "an ingest killed $1: nothing of it on the server" "$before $log_before" \
		"$(pg_sql "SELECT count(*) FROM runs") $(pg_sql "SELECT count(*) FROM ledger_log")"
	expect_code "pg-kill-$1-after" "the killed writer's replica works after it" 0 \
		env RUNLEDGER_CACHE_DIR="$PWD/m1" "$LEDGER" --db "$PG_URL" --format tsv init
	expect_eq "pg-kill-$1-replica" "and holds what the server holds" "$server_runs" \
		"$(sqlite3 -batch -noheader m1/pg-*.db "SELECT run_id FROM runs ORDER BY id")"
}
# while it holds the ledger's lock (reading its file into the replica)
kill_at locked "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2"
# while it sends its rows to the server's tables
kill_at sending "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'INSERT INTO \"runs\"%' AND state <> 'idle'"
expect_code pg-kill-then "the same file ingested again, whole" 0 "$LEDGER" --db "$PG_URL" --format tsv ingest big.jsonl
expect_match pg-kill-then-new "every run of it new" "$out" "	4000	0	0	0	0$"
expect_eq pg-kill-then-count "on the server" "$((before + 4000))" "$(pg_sql "SELECT count(*) FROM runs")"

# ---- waiting for the lock: said after a second, bounded by LEDGER_BUSY_TIMEOUT
# (the holder is a psql session; it lets go when the test ends it, so no
# step depends on how fast a process starts on a loaded machine)
locked() { pg_sql "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2"; }
hold() { # hold the ledger's write lock from psql until release
	PGAPPNAME=holder psql -X -q -h "$PG_SOCKDIR" -p "$PG_PORT" -U postgres -d ledger \
		-c "BEGIN; SELECT pg_advisory_xact_lock(1920298615, hashtext(current_schema())); SELECT pg_sleep(600); COMMIT" >/dev/null 2>&1 &
	hp=$!
	while [ "$(locked)" = 0 ]; do sleep 0.05; done
}
release() { pg_sql "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'holder'" >/dev/null; wait $hp 2>/dev/null; }
mk wait1.jsonl wait-r1
hold
"$LEDGER" --db "$PG_URL" ingest wait1.jsonl >wait1.out 2>wait1.err & ip=$!
t=0; while ! grep -q "waiting for its write lock" wait1.err && [ $t -lt 1200 ]; do sleep 0.05; t=$((t + 1)); done
release
wait $ip; rc=$?
expect_eq pg-wait-long "an ingest while another holds the lock waits, then stores" 0 "$rc"
expect_match pg-wait-long-note "saying it waits, and why" "$(cat wait1.err)" "waiting for its write lock, held by another writer \(as long as it takes; LEDGER_BUSY_TIMEOUT or ingest --wait bounds it\)"
expect_eq pg-wait-long-stored "the run is stored" 1 "$(pg_sql "SELECT count(*) FROM runs WHERE run_id = 'wait-r1'")"
mk wait2.jsonl wait-r2
hold
expect_code pg-wait-bounded "with LEDGER_BUSY_TIMEOUT=2 it gives up (exit 3)" 3 env LEDGER_BUSY_TIMEOUT=2 "$LEDGER" --db "$PG_URL" ingest wait2.jsonl
release
expect_match pg-wait-bounded-msg "saying so" "$err" "held the ledger for longer than LEDGER_BUSY_TIMEOUT \(2 s\); nothing was written"
expect_eq pg-wait-bounded-none "and nothing of it is stored" 0 "$(pg_sql "SELECT count(*) FROM runs WHERE run_id = 'wait-r2'")"
hold
expect_code pg-wait-option "ingest --wait 2 gives up as well (exit 3)" 3 "$LEDGER" --db "$PG_URL" ingest --wait 2 wait2.jsonl
release
expect_match pg-wait-option-said "it said how long it would wait, and what set it" "$err" \
	"waiting for its write lock, held by another writer \(up to 2 s, --wait\)"
expect_match pg-wait-option-msg "and why it stopped" "$err" "held the ledger for longer than --wait \(2 s\); nothing was written"
expect_eq pg-wait-option-none "nothing of it stored" 0 "$(pg_sql "SELECT count(*) FROM runs WHERE run_id = 'wait-r2'")"

# ---- push, then export: a ledger round-trips -----------------------------
"$LEDGER" --db a.db ingest "$FIXTURES/query/runs.jsonl" >/dev/null 2>&1
"$LEDGER" --db a.db ingest --hardware 'RTX 3090' --started-at 2026-03-18T00:00:00Z "$FIXTURES/audit/seed-results.tsv" >/dev/null 2>&1
"$LEDGER" --db a.db note h100-d12 'pushed note' >/dev/null
"$LEDGER" --db a.db decide h100-d9 discard >/dev/null
pg_sql "CREATE DATABASE trip" postgres >/dev/null
turl=$(printf '%s' "$PG_URL" | sed 's|/ledger?|/trip?|')
expect_code pg-trip-push "push a local ledger to a new database" 0 "$LEDGER" --db a.db push "$turl"
strip() { sed -E 's/("ingested_at":")[^"]*"/\1T"/g'; }
"$LEDGER" --db a.db export | strip >a.export
expect_code pg-trip-export "export it from the server" 0 "$LEDGER" --db "$turl" export
printf '%s\n' "$out" | strip >p.export
expect_eq pg-trip-same "the server's export is the local one's" "$(cat a.export)" "$(cat p.export)"
"$LEDGER" --db "$turl" export >p.jsonl
expect_code pg-trip-ingest "ingest the server's export into a new SQLite ledger" 0 "$LEDGER" --db c.db ingest p.jsonl
expect_eq pg-trip-back "whose export is the first ledger's again" "$(cat a.export)" "$("$LEDGER" --db c.db export | strip)"
# the other way: that export ingested into another PostgreSQL ledger
pg_sql "CREATE DATABASE trip2" postgres >/dev/null
t2=$(printf '%s' "$PG_URL" | sed 's|/ledger?|/trip2?|')
expect_code pg-trip-ingest-pg "and into another PostgreSQL ledger" 0 "$LEDGER" --db "$t2" ingest p.jsonl
expect_eq pg-trip-back-pg "with the same export" "$(cat a.export)" "$("$LEDGER" --db "$t2" export | strip)"
