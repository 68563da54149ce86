# t-ledger-corrupt.sh — errors never pass as results (issue 11 item 4).
# Test plan: a real ledger (the report fixture, the ingest fixture's bad
# lines in quarantine, 3000 generated runs so every table and index has
# interior and leaf pages, a declared campaign), checkpointed so the file
# holds everything. Then, for each of several pages picked through SQLite's
# dbstat (the roots of runs, changes, quarantine, campaigns and four
# indexes, runs leaves in the middle of the file), a copy with that page
# overwritten by dd: every read command (ledger query, show, diff,
# frontier, repeats, quarantine, campaign list/show, audit; report daily
# and campaign) must either exit 3 naming the ledger and what to do, or
# give exactly the undamaged ledger's output and exit status (the damage
# lies where it does not read). Anything else — a shorter digest, another
# exit, no message — fails. Pages every command reads must give exit 3.
# `ledger variables` and `report index` read no ledger, so are not here.
# Then `ledger check` (integrity and foreign keys, table and json),
# `ledger init` saying whether an existing ledger is healthy, and the write
# paths (ingest, reinfer, campaign assign) refusing a damaged ledger whole,
# and a statement that cannot be prepared (a column missing) reported once.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
need dd coreutils

# ---- the ledger ------------------------------------------------------------
awk 'BEGIN { for (i = 0; i < 3000; i++) {
	d = i % 7 + 4
	printf "{\"schema\":\"runrec/1\",\"run_id\":\"syn-%05d\",\"parent\":%s,\"agent\":\"agent%d\",", i,
		i ? sprintf("\"syn-%05d\"", i - 1) : "null", i % 9
	printf "\"campaign\":\"%s\",\"description\":\"depth to %d\",\"status\":\"ok\",\"decision\":\"%s\",",
		i % 3 ? "c1" : "c2", d, i % 4 ? "discard" : "keep"
	printf "\"started_at\":\"2026-03-16T%02d:%02d:00Z\",\"finished_at\":\"2026-03-16T%02d:%02d:30Z\",",
		int(i / 60) % 24, i % 60, int(i / 60) % 24, i % 60
	printf "\"hardware\":{\"gpu_name\":\"NVIDIA H100 80GB HBM3\",\"gpu_count\":1,\"gpu_mem_mb\":81559},"
	printf "\"config\":{\"model.depth\":%d,\"model.dim\":512,\"optim.matrix_lr\":0.0%d},", d, i % 9 + 1
	printf "\"metrics\":{\"val_bpb\":%.5f}}\n", 1.2 - i * 0.00001 } }' >syn.jsonl
"$LEDGER" --db clean.db ingest "$FIXTURES/report/runs.jsonl" "$FIXTURES/ingest/runs.jsonl" syn.jsonl >/dev/null 2>&1
printf '{"name":"c1","metric":"val_bpb","direction":"min","hardware":"H100","baseline":"syn-00001","search_space":["model.*"],"record_budget":100}\n' >camp.json
"$LEDGER" --db clean.db campaign add camp.json >/dev/null 2>&1
sql clean.db "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
expect_eq corrupt-0.1 "the ledger holds the runs and the quarantine" "3043 4 1" \
	"$(sql clean.db "SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM quarantine), (SELECT count(*) FROM campaigns)" | tr '|' ' ')"
expect_eq corrupt-0.2 "runs spans interior and leaf pages" "1" \
	"$(sql clean.db "SELECT count(*) > 100 AND sum(pagetype = 'internal') >= 1 FROM dbstat WHERE name = 'runs'")"

page_size=$(sql clean.db "PRAGMA page_size")
root() { sql clean.db "SELECT rootpage FROM sqlite_master WHERE name = '$1'"; }
runs_leaf() { sql clean.db "SELECT pageno FROM dbstat WHERE name = 'runs' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET $1"; }

# damage PAGE: x.db is clean.db with that page (1-based) overwritten
damage() {
	rm -f x.db x.db-wal x.db-shm
	cp clean.db x.db
	head -c "$page_size" /dev/zero | tr '\0' '\377' |
		dd of=x.db bs="$page_size" seek=$(($1 - 1)) conv=notrunc status=none
}

# The read commands, one a line: "L args" for ledger, "R args" for report.
cmds='L query
L show syn-01500
L diff syn-01000 syn-02000
L frontier
L repeats
L quarantine
L campaign list
L campaign show c1
L audit
R daily --date 2026-03-16 --out o --no-charts
R campaign --campaign c1 --out o --no-charts'

# run_cmd DB LINE: exit status in $rc, stdout and the report's markdown in
# result.txt, stderr in err.txt
run_cmd() {
	db=$1; set -f; set -- $2; set +f
	tool=$1; shift
	rm -rf o
	if [ "$tool" = L ]; then "$LEDGER" --db "$db" "$@" >out.txt 2>err.txt; else "$REPORT" --db "$db" "$@" >out.txt 2>err.txt; fi
	rc=$?
	cat out.txt o/*.md >result.txt 2>/dev/null
}

# the undamaged answers
i=0
printf '%s\n' "$cmds" | while IFS= read -r c; do
	i=$((i + 1))
	cp clean.db good.db
	run_cmd good.db "$c"
	echo "$rc" >"clean-$i.rc"
	cp result.txt "clean-$i.txt"
	[ "$rc" -le 1 ] && [ -s result.txt ] && ok "corrupt-clean-$i" "undamaged: $c (exit $rc)" ||
		not_ok "corrupt-clean-$i" "undamaged: $c" "exit $rc" "$(head -c 300 err.txt)"
done

# sweep NAME PAGE MUST: every command on the ledger with PAGE damaged;
# MUST lists the numbers of the commands that read the page, which must
# exit 3 (the others exit 3 too or answer as on the undamaged ledger)
sweep() {
	name=$1 page=$2 must=" $3 "
	damage "$page"
	i=0 failed=0 threes=0
	while IFS= read -r c; do
		i=$((i + 1))
		run_cmd x.db "$c"
		want=$(cat "clean-$i.rc")
		if [ "$rc" -eq 3 ]; then
			threes=$((threes + 1))
			if ! grep -Eq "cannot .*: ledger '[^']*x\.db': " err.txt || ! grep -q "hint: .*ledger --db [^ ]*x.db check" err.txt; then
				failed=1; not_ok "corrupt-$name-$i" "$c: exit 3 names the ledger and what to do" "$(head -c 400 err.txt)"
			fi
		elif [ "$rc" -ne "$want" ] || ! cmp -s result.txt "clean-$i.txt"; then
			failed=1; not_ok "corrupt-$name-$i" "$c: exit 3, or the undamaged answer" \
				"exit $rc (undamaged $want), output $(wc -c <result.txt) bytes (undamaged $(wc -c <"clean-$i.txt"))" \
				"stderr: $(head -c 300 err.txt)"
		fi
		case "$must" in *" $i "*)
			[ "$rc" -eq 3 ] || { failed=1; not_ok "corrupt-$name-$i.3" "$c reads page $page: exit 3" "exit $rc"; } ;;
		esac
	done <<EOF
$cmds
EOF
	[ "$failed" -eq 0 ] && ok "corrupt-$name" "page $page ($name) damaged: $threes of 11 commands exit 3, the rest answer as before"
}

# command numbers: 1 query 2 show 3 diff 4 frontier 5 repeats 6 quarantine
# 7 campaign list 8 campaign show 9 audit 10 report daily 11 report campaign
sweep runs-root "$(root runs)" "1 2 3 4 5 7 8 9 10 11"
sweep runs-leaf "$(runs_leaf 70)" "1 5"
sweep runs-leaf-late "$(runs_leaf 140)" "1 5"
sweep changes-root "$(root changes)" "1 2 8 9 10 11"
sweep quarantine-root "$(root quarantine)" "6"
sweep campaigns-root "$(root campaigns)" "7 8 9 11"
sweep runs-id-index "$(root sqlite_autoindex_runs_1)" "2 3"
sweep runs_frontier "$(root runs_frontier)" "4 10"
sweep runs_time "$(root runs_time)" "10"
sweep changes_var "$(root changes_var)" "11"
sweep file-middle $(($(wc -c <clean.db) / page_size / 2)) ""

# the schema's own page past the file header: no command can open the
# ledger, and each says so
rm -f x.db x.db-wal x.db-shm
cp clean.db x.db
head -c $((page_size - 100)) /dev/zero | tr '\0' '\377' | dd of=x.db bs=100 seek=1 conv=notrunc iflag=fullblock status=none
for c in query "check" "init"; do
	expect_code "corrupt-page1-$c" "page 1 damaged: $c exits 3" 3 "$LEDGER" --db x.db $c
	expect_match "corrupt-page1-$c.1" "names the ledger, says what to do" "$err" \
		"^ledger: hint: the ledger 'x.db' is damaged where it keeps its schema, so nothing can open it"
done

# ---- ledger check ----------------------------------------------------------
cp clean.db good.db
expect_code corrupt-check-1 "check on a healthy ledger: exit 0" 0 "$LEDGER" --db good.db check --format tsv
expect_eq corrupt-check-1.1 "both checks ok" "ledger	check	result
good.db	integrity_check	ok
good.db	foreign_key_check	ok" "$out"
expect_code corrupt-check-1.2 "--quick" 0 "$LEDGER" --db good.db check --quick --format tsv
expect_match corrupt-check-1.3 "runs quick_check" "$out" "^good.db	quick_check	ok$"
damage "$(root runs)"
expect_code corrupt-check-2 "check on a damaged ledger: exit 1" 1 "$LEDGER" --db x.db check --format tsv
expect_match corrupt-check-2.1 "names the damaged page" "$out" "^x\.db	integrity_check	Page $(root runs): "
expect_no_match corrupt-check-2.2 "no 'ok' for the integrity check" "$out" "integrity_check	ok"
expect_match corrupt-check-2.3 "says it is damaged, and what to do" "$err" \
	"^ledger: check: ledger 'x.db' is damaged: [0-9]+ problems?$"
expect_match corrupt-check-2.4 "(the hint)" "$err" "^ledger: hint: ingest the source files again into a new ledger"
expect_code corrupt-check-3 "json" 1 "$LEDGER" --db x.db check --format json
printf '%s' "$out" >check.json
expect_eq corrupt-check-3.1 "json: one row a problem, the ledger named in each" "1|1|1" \
	"$(sql :memory: "SELECT count(*) FILTER (WHERE j.value->>'check' = 'integrity_check' AND j.value->>'result' <> 'ok') > 1,
		count(*) FILTER (WHERE j.value->>'check' = 'foreign_key_check') >= 1,
		count(*) = count(*) FILTER (WHERE j.value->>'ledger' = 'x.db')
		FROM json_each(readfile('check.json')) j")"
cp clean.db fk.db
sql fk.db "PRAGMA foreign_keys=OFF; INSERT INTO changes(run, var, how) VALUES(999999, 'x.y', 'exact')"
expect_code corrupt-check-4 "a change of a run that is gone: exit 1" 1 "$LEDGER" --db fk.db check --format tsv
expect_eq corrupt-check-4.1 "foreign_key_check names it" "fk.db	foreign_key_check	a row of 'changes' refers to a missing row of 'runs'" \
	"$(printf '%s\n' "$out" | grep foreign_key_check)"
expect_code corrupt-check-5 "an argument is a usage error" 2 "$LEDGER" --db good.db check extra

# ---- ledger init on an existing ledger --------------------------------------
expect_code corrupt-init-1 "init on a healthy ledger: exit 0" 0 "$LEDGER" --db good.db init --format tsv
expect_eq corrupt-init-1.1 "says it is healthy" "ledger	schema	n_runs	health
good.db	4	3043	ok" "$out"
expect_code corrupt-init-2 "init on a damaged ledger: exit 1" 1 "$LEDGER" --db x.db init --format tsv
expect_match corrupt-init-2.1 "says it is damaged, runs not counted" "$out" \
	"^x\.db	4		damaged: .*see 'ledger check'\)$"
expect_match corrupt-init-2.2 "and on stderr what to do" "$err" "hint: 'ledger --db x.db check' lists the damage"

# ---- writes refuse a damaged ledger whole -------------------------------------
printf '{"schema":"runrec/1","run_id":"new-1","status":"ok","metrics":{"val_bpb":1.1}}\n' >new.jsonl
for p in runs-root:"$(root runs)" runs-id-index:"$(root sqlite_autoindex_runs_1)"; do
	damage "${p#*:}"
	before=$(md5sum <x.db)
	expect_code "corrupt-ingest-${p%%:*}" "ingest into a damaged ledger (${p%%:*}): exit 3" 3 "$LEDGER" --db x.db ingest new.jsonl
	expect_match "corrupt-ingest-${p%%:*}.1" "names the ledger" "$err" "^ledger: cannot .*: ledger '[^']*x\.db': database disk image is malformed$"
	expect_no_match "corrupt-ingest-${p%%:*}.2" "no summary line" "$out" "new"
	expect_eq "corrupt-ingest-${p%%:*}.3" "the file is as it was" "$before" "$(md5sum <x.db)"
done
damage "$(root changes)"
expect_code corrupt-reinfer "reinfer on a damaged ledger: exit 3" 3 "$LEDGER" --db x.db reinfer
expect_match corrupt-reinfer.1 "names the ledger" "$err" "ledger '[^']*x\.db': database disk image is malformed"
damage "$(root runs)"
expect_code corrupt-assign "campaign assign on a damaged ledger: exit 3" 3 "$LEDGER" --db x.db campaign assign c1 syn-00002
expect_no_match corrupt-assign.1 "not taken for a missing run" "$err" "no run 'syn-00002'"

# ---- a statement that cannot be prepared -------------------------------------
# tables that are not the schema the version claims: the prepare fails, and
# the step after it says nothing more, so one message, exit 3, no output
cp clean.db odd.db
sql odd.db "ALTER TABLE changes DROP COLUMN span"
expect_code corrupt-prepare-1 "show on a ledger without changes.span: exit 3" 3 "$LEDGER" --db odd.db show syn-00002
expect_match corrupt-prepare-1.1 "names the ledger and SQLite's reason" "$err" \
	"^ledger: cannot prepare a query: ledger '[^']*odd\.db': no such column: span$"
expect_match corrupt-prepare-1.2 "and the statement" "$err" "^  in: SELECT var, old, new, how, span FROM changes"
expect_eq corrupt-prepare-1.3 "one error, one hint" "1 1" \
	"$(printf '%s\n' "$err" | grep -c '^ledger: cannot') $(printf '%s\n' "$err" | grep -c '^ledger: hint:')"
expect_eq corrupt-prepare-1.4 "no output" "" "$out"
