# t-ledger-audit-real.sh — the audit on a real autoresearch session
# (tests/fixtures/real/README.md says where it came from): the findings a
# person reading the log would agree with, and none that misquote it.
# Test plan: ingest with times, declare a campaign over the math knobs, and
# check the confounded findings: the runs that really changed two things,
# and a group of runs that moved the same two knobs to different values is
# told by its variables, never by one run's values.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
need jq jq
F="$FIXTURES/real/hsgngr-macos-results.tsv"
"$LEDGER" --db r.db ingest "$F" --hardware "Apple M3 Max" --campaign hsg \
	--started-at 2026-03-10T00:00:00Z >/dev/null 2>&1
expect_eq audit-real-1.1 "every row is a run" 20 "$(sql r.db 'SELECT count(*) FROM runs')"
cat >c.json <<'EOF2'
{"name":"hsg","hardware":"M3 Max","baseline":"first valid run",
 "search_space":["model.*","optim.*","sched.*","train.*"],"record_budget":30}
EOF2
"$LEDGER" --db r.db campaign add c.json >/dev/null
expect_code audit-real-2.1 "audit: findings" 1 "$LEDGER" --db r.db audit --campaign hsg --kind confounded --format json
batch=$(sql r.db "SELECT group_concat(run_id, ', ') FROM (SELECT run_id FROM runs
	WHERE description LIKE 'TOTAL_BATCH_SIZE=2^1_ DEVICE_BATCH_SIZE=%' ORDER BY id)")
row=$(printf '%s' "$out" | jq -r --arg b "$batch" '.[] | select((.runs | join(", ")) == $b) | .sentence')
expect_match audit-real-2.2 "the three batch runs are one confounded finding" "$row" 'changed .* together'
expect_eq audit-real-2.3 "told by their variables: each moved them to other values" \
	"$(printf '%s' "$batch" | sed 's/, \([^,]*\)$/ and \1/') changed train.device_batch_size + train.total_batch_size together (2 with a valid measurement): the effect of each is unknowable; test them one at a time." \
	"$row"

# 3: what the rows changed, as a reader of the log would write it down: a
# setting restated from the baseline ("dim=256" after "baseline: depth=4
# dim=256") is no change, so row 3 changed two knobs, not three
expect_eq audit-real-3.1 "row 3: HEAD_DIM=64 4 heads dim=256" "model.head_dim ? -> 64; model.heads ? -> 4" \
	"$(sql r.db "SELECT group_concat(var || ' ' || coalesce(old, '?') || ' -> ' || new, '; ') FROM
		(SELECT c.* FROM changes c JOIN runs r ON r.id = c.run WHERE r.description LIKE 'HEAD_DIM=64%' ORDER BY var)")"
expect_eq audit-real-3.2 "the baseline records no change" "0" \
	"$(sql r.db "SELECT count(*) FROM changes c JOIN runs r ON r.id = c.run WHERE r.description LIKE 'baseline:%'")"
expect_eq audit-real-3.3 "every change is inferred from the text, with its span" "0" \
	"$(sql r.db "SELECT count(*) FROM changes WHERE how <> 'inferred' OR span IS NULL")"
