# t-ledger-exact-values.sh — an exact change is a change of value, not of
# spelling: a parent's model.depth 8 and a child's 8.0 (another tool's JSON
# writer) are one value, so no change is recorded and the run page shows no
# parent value for it; while 0.001 against 0.0010000000000000002 is a real change and every place that
# prints it (show, the run page) prints two different numbers.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
need jq jq
H='"hardware":{"gpu_name":"NVIDIA H100 80GB HBM3"}'
cat >runs.jsonl <<EOR
{"schema":"runrec/1","run_id":"p","status":"ok","finished_at":"2026-03-16T10:00:00Z",$H,"config":{"optim.matrix_lr":0.001,"model.depth":8},"metrics":{"val_bpb":1.0}}
{"schema":"runrec/1","run_id":"c","parent":"p","status":"ok","finished_at":"2026-03-16T11:00:00Z",$H,"config":{"optim.matrix_lr":0.0010000000000000002,"model.depth":8.0},"metrics":{"val_bpb":0.99}}
EOR
expect_code exact-values-1 "ingest" 0 "$LEDGER" --db l.db ingest runs.jsonl
expect_eq exact-values-2 "one exact change: the learning rate; not depth 8 -> 8.0" \
	"optim.matrix_lr|0.001|0.0010000000000000002" \
	"$(sql l.db "SELECT c.var || '|' || c.old || '|' || c.new FROM changes c JOIN runs r ON r.id = c.run WHERE r.run_id = 'c'")"
expect_code exact-values-3 "show" 0 "$LEDGER" --db l.db show c
expect_eq exact-values-4 "show lists that change alone, both values exact" \
	"ledger.changed.optim.matrix_lr  0.001 -> 0.0010000000000000002 (exact)" \
	"$(printf '%s\n' "$out" | grep '^ledger\.changed\.')"
expect_code exact-values-5 "a digest with run pages" 0 "$REPORT" --db l.db daily --date 2026-03-16 --out r --no-charts
page=$(cat r/runs/c.md)
expect_match exact-values-6 "the run page: the rate's two values differ in print" "$page" \
	'^\| optim\.matrix\\_lr \| 0\.0010000000000000002 \| 0\.001 \| exact \|'
expect_match exact-values-7 "depth: no parent value shown (the same value)" "$page" '^\| model\.depth \| 8 \|  \|  \|  \|$'

# a ledger an earlier build wrote: the same runs with 'model.depth 8 -> 8'
# stored as an exact change; reinfer diffs the configs again and drops it
cp l.db old.db
sql old.db "INSERT INTO changes(run, var, old, new, how) SELECT id, 'model.depth', '8', '8', 'exact' FROM runs WHERE run_id = 'c'"
expect_code exact-values-9 "reinfer --dry-run on the old ledger" 0 "$LEDGER" --db old.db --format json reinfer --dry-run
expect_eq exact-values-10 "it counts the run whose exact changes differ, writes nothing" '1 false 2' \
	"$(printf '%s' "$out" | jq -r '"\(.n_changed) \(.written)"') $(sql old.db "SELECT count(*) FROM changes")"
expect_code exact-values-11 "reinfer" 0 "$LEDGER" --db old.db reinfer
expect_eq exact-values-12 "the change that changed nothing is gone, the real one kept" \
	"optim.matrix_lr|0.001|0.0010000000000000002|exact" \
	"$(sql old.db "SELECT var || '|' || old || '|' || new || '|' || how FROM changes")"
expect_eq exact-values-13 "a second reinfer changes nothing" "0" \
	"$("$LEDGER" --db old.db --format json reinfer | jq .n_changed)"
