# t-ledger-summary.sh — `ledger summary`: counts, keep rate, crashes and the
# streak, best per class, runs since the frontier moved / improved, the
# trend rule of docs/ledger.md at its edges, a campaign's untested search
# space; every format; filters as query.
. "$ROOT/tests/lib.sh"
need jq jq
cp "$FIXTURES/query/runs.jsonl" . || exit 1
"$LEDGER" ingest runs.jsonl >/dev/null 2>&1 || { not_ok ledger-summary-0 "fixture ingests"; exit 1; }

expect_code ledger-summary-1.1 "json" 0 "$LEDGER" --format json summary
printf '%s\n' "$out" >s.json
# the fixture: 15 runs, r3090-nan (status nan) and h100-d12 (crash) failed,
# both decided discard; of the 13 valid, 4 baselines and 5 keeps (9 keeps)
# and 4 discards; the last run in time order is a100-late (untimed: last)
expect_eq ledger-summary-1.2 "counts (n_*, numbers)" '{"n_runs":15,"n_valid":13,"n_keeps":9,"n_discards":4,"n_crashes":2,"n_crash_streak":0,"last_run":"a100-late"}' \
	"$(jq -c '{n_runs, n_valid, n_keeps, n_discards, n_crashes, n_crash_streak, last_run}' s.json)"
expect_eq ledger-summary-1.3 "keep rate as analysis.ipynb: keeps / (keeps + discards), failed runs apart" "0.69230" "$(jq -r '.keep_rate | tostring | .[0:7]' s.json)"
expect_eq ledger-summary-1.3a "keeps and discards as the digest counts them (valid runs, decision keep or baseline / discard)" \
	"$(jq -r '"\(.n_keeps) \(.n_discards)"' s.json)" "$("$LEDGER" --format json query | jq -r '[(map(select(.status == "ok" and .val_bpb != null and (.decision == "keep" or .decision == "baseline"))) | length), (map(select(.status == "ok" and .val_bpb != null and .decision == "discard")) | length)] | "\(.[0]) \(.[1])"')"
expect_eq ledger-summary-1.4 "best per class, by class name, as the frontier's last point" \
	"$("$LEDGER" --format json frontier | jq -c '[group_by(.hardware)[] | last | {hardware, run_id, val_bpb}]')" \
	"$(jq -c '[.best[] | {hardware, run_id, val_bpb}]' s.json)"
expect_eq ledger-summary-1.5 "a100-late moved the A100 frontier: 0 runs since" "0 0 improving" \
	"$(jq -r '"\(.n_runs_since_frontier_moved) \(.n_runs_since_improvement) \(.trend)"' s.json)"
expect_eq ledger-summary-1.6 "no campaign: untested is null" "null" "$(jq -c .untested s.json)"

# filters as query: the H100 runs
"$LEDGER" --format json summary --hardware H100 >h.json
expect_eq ledger-summary-2.1 "--hardware H100: the baseline and 2 keeps, 1 discard, the crash apart" '{"n_runs":5,"n_keeps":3,"n_discards":1,"n_crashes":1,"best":"h100-mlr5"}' \
	"$(jq -c '{n_runs, n_keeps, n_discards, n_crashes, best: .best[0].run_id}' h.json)"
expect_eq ledger-summary-2.2 "--status ok --agent bob" "4" "$("$LEDGER" --format json summary --status ok --agent bob | jq .n_runs)"
expect_code ledger-summary-2.3 "a bad filter" 2 "$LEDGER" summary --status fine

# text formats: field / value
expect_code ledger-summary-3.1 "table" 0 "$LEDGER" summary --hardware H100
expect_eq ledger-summary-3.2 "field  value lines" "n_runs                       5
keep_rate                    0.750
best.H100                    0.999000 h100-mlr5
trend                        improving" "$(printf '%s\n' "$out" | grep -E '^(n_runs|keep_rate|trend) |^best\.')"
expect_code ledger-summary-3.3 "tsv" 0 "$LEDGER" --format tsv summary --hardware H100
expect_eq ledger-summary-3.4 "tsv: the same rows" "$(printf '%s\n' "$(cd . && "$LEDGER" summary --hardware H100)" | sed 's/  */\t/' | sed '1i field\tvalue' | sed 's/\tnull$/\t/')" "$out"
expect_code ledger-summary-3.5 "csv" 0 "$LEDGER" --format csv summary --hardware H100
expect_match ledger-summary-3.6 "(csv row)" "$out" '^best\.H100,0\.999000 h100-mlr5'
expect_code ledger-summary-3.7 "md" 0 "$LEDGER" --format md summary --hardware H100
expect_match ledger-summary-3.8 "(md row, escaped)" "$out" '^\| n\\_runs\\_since\\_frontier\\_moved \| 0 \|$'

# the trend rule at its edges: a baseline, then N runs that do not beat it
# (and one improvement where asked), on one class
series() { # FILE BETTER_AT N [STATUS]: N runs after a baseline at 1.0
	awk -v better="$2" -v n="$3" -v st="${4:-ok}" 'BEGIN {
		printf "{\"schema\":\"runrec/1\",\"run_id\":\"b\",\"status\":\"ok\",\"decision\":\"baseline\",\"finished_at\":\"2026-03-16T00:00:00Z\",\"hardware\":{\"gpu_name\":\"NVIDIA H100 80GB HBM3\"},\"metrics\":{\"val_bpb\":1.0}}\n"
		for (i = 1; i <= n; i++) {
			v = (i == better) ? 0.9 : 1.1; s = (i == better) ? "ok" : st
			printf "{\"schema\":\"runrec/1\",\"run_id\":\"r%02d\",\"status\":\"%s\",\"decision\":\"%s\",\"finished_at\":\"2026-03-16T%02d:00:00Z\",\"hardware\":{\"gpu_name\":\"NVIDIA H100 80GB HBM3\"},\"metrics\":{\"val_bpb\":%s}}\n", i, s, i == better ? "keep" : "discard", i, s == "ok" ? v : "null"
		} }' >"$1"
	rm -f "$1.db"
	"$LEDGER" --db "$1.db" ingest "$1" >/dev/null 2>&1
	"$LEDGER" --db "$1.db" --format json summary | jq -r '"\(.trend) \(.n_runs_since_improvement) \(.n_runs_since_frontier_moved) \(.n_crash_streak)"'
}
expect_eq ledger-summary-4.1 "improved 9 runs ago: improving" "improving 9 9 0" "$(series t1 1 10)"
expect_eq ledger-summary-4.2 "improved 10 runs ago: plateau" "plateau 10 10 0" "$(series t2 1 11)"
expect_eq ledger-summary-4.3 "improved 19 runs ago: plateau" "plateau 19 19 0" "$(series t3 1 20)"
expect_eq ledger-summary-4.4 "improved 20 runs ago: stuck" "stuck 20 20 0" "$(series t4 1 21)"
expect_eq ledger-summary-4.5 "never improved on the baseline: plateau" "plateau null 3 0" "$(series t5 0 3)"
expect_eq ledger-summary-4.6 "4 crashes in a row: not stuck yet" "plateau null 4 4" "$(series t6 0 4 crash)"
expect_eq ledger-summary-4.7 "5 crashes in a row after an improvement: stuck" "stuck 5 5 5" "$(series t7 1 6 crash)"
expect_eq ledger-summary-4.8 "an empty ledger: none" "none null null 0" \
	"$("$LEDGER" --db empty.db init >/dev/null; "$LEDGER" --db empty.db --format json summary | jq -r '"\(.trend) \(.n_runs_since_improvement) \(.n_runs_since_frontier_moved) \(.n_crash_streak)"')"

# a declared campaign: its metric, and the untested part of its search space
"$LEDGER" --db c.db ingest "$FIXTURES/audit/seed.jsonl" >/dev/null 2>&1
"$LEDGER" --db c.db campaign add "$FIXTURES/audit/campaign.json" >/dev/null 2>&1
"$LEDGER" --db c.db --format json summary --campaign qwen-compile >c.json
expect_eq ledger-summary-5.1 "every impl.* variable of the registry is untested (none valid and alone)" \
	"$("$LEDGER" variables --kind impl --format json | jq -c '[.[].key]')" "$(jq -c .untested c.json)"
expect_eq ledger-summary-5.2 "the campaign's runs, crash streak" '{"campaign":"qwen-compile","n_runs":10,"n_crash_streak":3}' \
	"$(jq -c '{campaign, n_runs, n_crash_streak}' c.json)"
# a campaign whose search space a valid solo run has tested
printf '%s\n' '{"name":"depth-sweep","search_space":["model.depth","optim.matrix_lr","my.knob"],"hardware":"H100"}' >d.json
"$LEDGER" campaign add d.json >/dev/null 2>&1
expect_eq ledger-summary-5.3 "tested alone: model.depth (h100-d9), optim.matrix_lr (h100-mlr5); my.knob is in scope and untested" \
	'["my.knob"]' "$("$LEDGER" --format json summary --campaign depth-sweep | jq -c .untested)"
expect_eq ledger-summary-5.4 "(text: comma-separated)" "untested                     my.knob" \
	"$("$LEDGER" summary --campaign depth-sweep | grep '^untested')"
