# t-ledger-audit-session.sh — the audit on sessions shaped like real
# autoresearch ones: every experiment its own commit, "expN" labels, "+"-joined
# changes, "A→B" values, seed reruns, "baseline again", and a re-test of a
# discarded change after the parent moved on. The shape (distinct short
# commits, labels, arrows, commentary after the change) follows public
# results.tsv files such as
# https://github.com/Djordje-Stojanovic/TrainRTX5070/blob/main/results.tsv;
# the rows and values here are written for this test.
# Test plan: (1) tests/fixtures/audit/session-results.tsv: the findings are
# exactly the true ones (a crash unresolved, two "+" rows confounded, the
# budget's invalid record), the reruns join their parent's repeat group
# (exp3, exp4 with exp1; exp8 with exp6), and there is no duplicate_attempt,
# within_noise or out_of_scope. (2) the same story as runrec/1 records with
# configs (exact changes): a second depth-9 attempt against the same parent
# is a duplicate_attempt whose sentence quotes each attempt's value and
# decision; the depth-9 re-test after the parent changed is not.
. "$ROOT/tests/lib.sh"
A="$FIXTURES/audit"
export LEDGER_DB="$PWD/ledger.db"

"$LEDGER" ingest --hardware H100 --campaign sess "$A/session-results.tsv" >/dev/null 2>&1
printf '%s\n' '{"name":"sess","hardware":"H100","search_space":["*"]}' >sess.json
"$LEDGER" campaign add sess.json >/dev/null
# rows are named E0 (the baseline) .. E9 by their label
sql ledger.db "SELECT run_id, CASE WHEN description LIKE 'exp%' THEN 'E' || substr(description, 4, 1) ELSE 'E0' END FROM runs ORDER BY id" |
	awk -F'|' '{printf "s/%s/%s/g\n", $1, $2}' >names.sed

expect_code ledger-audit-session-1.0 "audit the session" 1 "$LEDGER" audit --campaign sess --format tsv
got=$(printf '%s\n' "$out" | cut -f2,4,7 | sed -f names.sed)
want=$(cat <<'X'
kind	runs	values
budget		records=10;budget=null;out_of_scope=0;invalid=1;both=0;in_scope_valid=8;keeps=4;discards=5;crashes=1;keep_rate=0.444444
confounded	E5	n_runs=1;valid=0
confounded	E9	n_runs=1;valid=1
unresolved	E5	attempts=1
repeat_noise	E1, E3, E4	n=3;mean=1.090000;sd=0.001000;min=1.089000;max=1.091000;range=0.002000;failed=0
repeat_noise	E6, E8	n=2;mean=1.079750;sd=0.000354;min=1.079500;max=1.080000;range=0.000500;failed=0
noise_floor		floor=0.001683;pooled_sd=0.000842;groups=2;n_runs=5
X
)
expect_eq ledger-audit-session-1.1 "only true findings; reruns repeat their parent" "$want" "$got"
expect_eq ledger-audit-session-1.2 "the seed rerun and the 'same config' row share exp1's repeat key" "1" \
	"$(sql ledger.db "SELECT count(DISTINCT repeat_key) FROM runs WHERE description LIKE 'exp1 %' OR description LIKE 'exp3 %' OR description LIKE 'exp4 %'")"
expect_eq ledger-audit-session-1.3 "ledger repeats shows the same two groups" "3|E1,E3,E4
2|E6,E8" "$("$LEDGER" repeats --format tsv | awk -F'\t' 'NR>1{print $2 "|" $10}' | sed -f names.sed)"

# --- the same story with configs: exact changes, a commit per run -----------
rec() { # run_id parent commit decision val depth lr warmdown seed description
	printf '{"schema":"runrec/1","run_id":"%s","parent":%s,"campaign":"cfg","status":"ok","decision":"%s",' "$1" "$2" "$4"
	printf '"finished_at":"2026-03-16T%s:00:00Z","hardware":{"gpu_name":"NVIDIA H100 80GB HBM3"},' "$(printf '%02d' "$n")"
	printf '"code":{"commit":"%s"},"config":{"model.depth":%s,"optim.matrix_lr":%s,"sched.warmdown_ratio":%s,"train.seed":%s},' "$3" "$6" "$7" "$8" "$9"
	printf '"metrics":{"val_bpb":%s},"description":"%s"}\n' "$5" "${10}"
	n=$((n + 1))
}
n=0
{
	rec s0 null c0 baseline 1.100 8 0.04 0.5 1 "baseline"
	rec s1 '"s0"' c1 keep 1.090 8 0.05 0.5 1 "matrix lr 0.05"
	rec s2 '"s1"' c2 discard 1.095 9 0.05 0.5 1 "depth 9"
	rec s3 '"s1"' c3 discard 1.089 8 0.05 0.5 2 "seed 2"
	rec s4 '"s1"' c4 discard 1.096 9 0.05 0.5 1 "depth 9 again, to be sure"
	rec s5 '"s1"' c5 keep 1.080 8 0.05 0.6 1 "warmdown 0.6"
	rec s6 '"s5"' c6 discard 1.082 9 0.05 0.6 1 "depth 9 on the new best"
} >cfg.jsonl
"$LEDGER" ingest cfg.jsonl >/dev/null
printf '%s\n' '{"name":"cfg","hardware":"H100","search_space":["*"]}' >cfg.json
"$LEDGER" campaign add cfg.json >/dev/null
expect_code ledger-audit-session-2.0 "audit the config session" 1 "$LEDGER" audit --campaign cfg --format tsv
expect_eq ledger-audit-session-2.1 "one duplicate (same parent), repeats on other commits, no re-test finding" \
"budget		
duplicate_attempt	s2, s4	model.depth
repeat_noise	s1, s3	optim.matrix_lr
repeat_noise	s2, s4	model.depth
noise_floor		" "$(printf '%s\n' "$out" | awk -F'\t' 'NR>1{print $2 "\t" $4 "\t" $5}')"
expect_match ledger-audit-session-2.2 "the duplicate's sentence quotes both attempts" "$out" \
	"model.depth 8 -> 9 against s1 was already measured by s2 \(val_bpb 1\.095000, discard\) and tried 1 more time against the same parent configuration: s4 \(val_bpb 1\.096000, discard\)"
expect_eq ledger-audit-session-2.3 "the re-test after the parent changed has its own repeat key" "3" \
	"$(sql ledger.db "SELECT count(DISTINCT repeat_key) FROM runs WHERE run_id IN ('s2', 's4', 's6', 's1')")"

# --- another budget, and a discarded improvement ----------------------------
# b2 trained for 600 s (and b3, built on it, too): shown, never compared
# with the 300-second baseline. b4 was discarded at 1.085 while the kept
# frontier stood at b1's 1.090.
bud() { # run_id parent decision val seconds lr
	printf '{"schema":"runrec/1","run_id":"%s","parent":%s,"campaign":"bud","status":"ok","decision":"%s",' "$1" "$2" "$3"
	printf '"finished_at":"2026-03-17T%s:00:00Z","hardware":{"gpu_name":"NVIDIA H100 80GB HBM3"},"code":{"commit":"%s"},' "$(printf '%02d' "$n")" "$1"
	printf '"budget":{"seconds":%s},"config":{"optim.matrix_lr":%s,"train.time_budget_s":%s},"metrics":{"val_bpb":%s}}\n' "$5" "$6" "$5" "$4"
	n=$((n + 1))
}
n=0
{
	bud b0 null baseline 1.100 300 0.04
	bud b1 '"b0"' keep 1.090 300 0.05
	bud b2 '"b1"' keep 1.050 600 0.05
	bud b3 '"b2"' discard 1.060 600 0.06
	bud b4 '"b1"' discard 1.085 300 0.06
} >bud.jsonl
"$LEDGER" ingest bud.jsonl >/dev/null
printf '%s\n' '{"name":"bud","hardware":"H100","search_space":["*"],"noise_default":0.002}' >bud.json
"$LEDGER" campaign add bud.json >/dev/null
expect_code ledger-audit-session-3.0 "audit the budget session" 1 "$LEDGER" audit --campaign bud --format tsv
expect_eq ledger-audit-session-3.1 "other budget and the discarded improvement" \
"budget	records=5;budget=null;out_of_scope=0;invalid=0;both=0;in_scope_valid=4;keeps=3;discards=2;crashes=0;keep_rate=0.600000
other_budget	b2, b3
discarded_improvement	b1, b4
noise_floor	" "$(printf '%s\n' "$out" | awk -F'\t' 'NR>1{print $2 "\t" ($2 == "budget" ? $7 : $4)}')"
expect_match ledger-audit-session-3.2 "the budget sentence" "$out" \
	"b2 and b3 trained for 600 s, not the 300 s of the baseline b0; they are shown but never compared with 300-second results"
expect_match ledger-audit-session-3.3 "the discarded improvement's sentence" "$out" \
	"b4 \(optim.matrix_lr 0.05 -> 0.06\) was discarded at val_bpb 1\.085000 though it beat the kept frontier 1\.090000 of b1 by 0\.005000 \(beyond the noise floor 0\.002000\)"
expect_code ledger-audit-session-3.4 "--all frontier would have moved at b4 but the default does not" 0 "$LEDGER" frontier --campaign bud --format tsv
expect_eq ledger-audit-session-3.5 "ledger frontier follows kept runs" "b0 b1 b2" "$(printf '%s\n' "$out" | tail -n +2 | cut -f1 | tr '\n' ' ' | sed 's/ $//')"

# --- the campaign report says the same ------------------------------------------
"$REPORT" --db ledger.db campaign --campaign bud --out rep --no-charts >/dev/null 2>&1
# run ids link to their pages ([b2](runs/b2.md)): read as their labels here
md=$(sed 's/\[\([^]]*\)\](runs\/[^)]*\.md)/\1/g' rep/campaign-bud.md)
expect_match ledger-audit-session-4.1 "report: keep rate keeps / (keeps + discards), baseline a keep" "$md" \
	'^- Keep rate: 60% \(3 kept, the baseline counted as a keep, against 2 discarded; 0 without a valid measurement counted apart\)$'
expect_match ledger-audit-session-4.2 "report: the other budget is named and left out" "$md" \
	'^- Trained for another time budget, so shown but never compared with 300-second results .*: b2, b3$'
expect_match ledger-audit-session-4.3 "report: the 600 s run is not the best" "$md" '^- Best on the campaign.s hardware: b4 at \*\*1\.0850\*\*$'
expect_eq ledger-audit-session-4.4 "report: top hits leave the 600 s keep out" "| 1 | b1 | H100 | 1.0900 | b0 (1.1000) | +0.0100 |  |" \
	"$(printf '%s\n' "$md" | grep '^| 1 | b1 ')"
"$REPORT" --db ledger.db campaign --campaign sess --out rep --no-charts >/dev/null 2>&1
got=$(awk '/^## Top hits/,/^## Runs/' rep/campaign-sess.md | awk -F' \\| ' '/^\| [0-9]+ \|/ { print $1, $6 }' | sed -f names.sed)
expect_eq ledger-audit-session-4.5 "report: the session's top hits by gain" "| 1 +0.0100
| 2 +0.0100
| 3 +0.0100" "$got"
expect_match ledger-audit-session-4.6 "report: top hits total" "$(cat rep/campaign-sess.md)" '^Total gain of the 3 keeps over the keep each was built on: \+0\.0300\.$'

# --- discarding a gain inside the noise floor is a fair call ---------------------
printf '%s\n' '{"schema":"runrec/1","run_id":"n1","parent":"b1","campaign":"fair","status":"ok","decision":"discard","finished_at":"2026-03-17T09:00:00Z","hardware":{"gpu_name":"NVIDIA H100 80GB HBM3"},"budget":{"seconds":300},"config":{"optim.matrix_lr":0.055,"train.time_budget_s":300},"metrics":{"val_bpb":1.0889}}' >fair.jsonl
"$LEDGER" ingest fair.jsonl >/dev/null
printf '%s\n' '{"name":"fair","hardware":"H100","baseline":"b0","search_space":["*"],"noise_default":0.002}' >fair.json
"$LEDGER" campaign add fair.json >/dev/null
"$LEDGER" campaign assign fair b0 b1 >/dev/null
"$LEDGER" audit --campaign fair --format tsv >fair.tsv
expect_eq ledger-audit-session-5.1 "a discard 0.0011 below the kept frontier, floor 0.002: no finding" "" \
	"$(awk -F'\t' '$2 == "discarded_improvement"' fair.tsv)"
"$LEDGER" audit --campaign fair --noise-default 0.001 --format tsv >fair.tsv
expect_eq ledger-audit-session-5.2 "the same discard beyond a floor of 0.001 is one" "b1, n1" \
	"$(awk -F'\t' '$2 == "discarded_improvement" {print $4}' fair.tsv)"
