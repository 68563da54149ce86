# t-ledger-audit.sh — `ledger audit` on the seed campaign written as runrec/1
# records (tests/fixtures/audit/seed.jsonl: RTX 3090, 10-record budget,
# compile-and-kernel search space impl.*, baseline q20-01 at 1.245730).
# Test plan: ingest + declare; the tsv output's kind, runs, variables and
# values columns equal the expected findings row for row (out-of-scope
# depth runs, the confounded checkpointing+batch run, two unresolved
# compile modes, the noise floor of the four depth-9 repeats, no
# improvement, the budget split); key sentences; json structure; exit
# codes 0 (info only) / 1 (findings) / 2 (usage); --coverage; every
# declared campaign when --campaign is absent, plus undeclared ones.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
A="$FIXTURES/audit"
export LEDGER_DB="$PWD/ledger.db"

"$LEDGER" init >/dev/null
expect_code ledger-audit-0.0 "nothing declared yet: clean" 0 "$LEDGER" audit
expect_eq ledger-audit-0.0a "and a hint says why" "ledger: hint: no campaign is declared, so there is nothing to audit; see 'ledger campaign --help'" "$err"
expect_code ledger-audit-0.1 "ingest the seed campaign" 0 "$LEDGER" ingest "$A/seed.jsonl"
expect_code ledger-audit-0.2 "declare it" 0 "$LEDGER" campaign add "$A/campaign.json"

expect_code ledger-audit-1.0 "audit with findings exits 1" 1 "$LEDGER" audit --campaign qwen-compile --format tsv
# kind, runs, variables, values: the findings, exactly and in order
got=$(printf '%s\n' "$out" | cut -f2,4,5,7)
want=$(cat <<'EOF'
kind	runs	variables	values
no_improvement	q20-01, q20-04		baseline=1.245730;compared=6;best=1.312003
budget			records=10;budget=10;out_of_scope=7;invalid=3;both=1;in_scope_valid=0;keeps=1;discards=6;crashes=3;keep_rate=0.142857
out_of_scope	q20-02, q20-03, q20-04, q20-05, q20-06	model.depth	n_runs=5
out_of_scope	q20-07, q20-08	train.device_batch_size	n_runs=2
confounded	q20-07, q20-08	impl.recompute, train.device_batch_size	n_runs=2;valid=1
unresolved	q20-09	impl.compile_mode	attempts=1
unresolved	q20-10	impl.compile_mode	attempts=1
duplicate_attempt	q20-02, q20-03, q20-04, q20-05	model.depth	attempts=4;after_measured=3;measured=1.313253
duplicate_attempt	q20-07, q20-08	impl.recompute, train.device_batch_size	attempts=2;after_measured=1;measured=1.355166
repeat_noise	q20-02, q20-03, q20-04, q20-05	model.depth	n=4;mean=1.313047;sd=0.000703;min=1.312003;max=1.313470;range=0.001467;failed=0
noise_floor			floor=0.001406;pooled_sd=0.000703;groups=1;n_runs=4
EOF
)
expect_eq ledger-audit-1.1 "findings: kinds, runs, variables, values" "$want" "$got"
levels=$(printf '%s\n' "$out" | awk -F'\t' 'NR>1{print $3}' | sort | uniq -c | tr -s ' ' | tr '\n' '/')
expect_eq ledger-audit-1.2 "9 warnings, 2 info rows" " 2 info/ 9 warn/" "$levels"
expect_match ledger-audit-1.3 "no improvement sentence names baseline and hardware" "$out" \
	"No run beat the baseline q20-01 \(val_bpb 1\.245730\) on RTX 3090: the best of 6 other valid runs, q20-04, reached 1\.312003 \(\+0\.066273\)"
expect_match ledger-audit-1.4 "budget split sentence" "$out" \
	"10 of 10 records used: 7 changed variables outside the search space, 3 produced no valid measurement \(1 of them also out of scope\), 0 validly measured"
expect_match ledger-audit-1.5 "unresolved max-autotune names the invalid run" "$out" \
	"impl.compile_mode default -> max-autotune-no-cudagraphs was attempted 1 time and never validly measured \(q20-09: invalid in eval: 'no valid summary block'\)"
expect_match ledger-audit-1.6 "unresolved reduce-overhead names the crash in backward" "$out" \
	"impl.compile_mode default -> reduce-overhead was attempted 1 time and never validly measured \(q20-10: crash in backward: "
expect_match ledger-audit-1.7 "confounded sentence" "$out" \
	"q20-07 and q20-08 changed impl.recompute false -> true \+ train.device_batch_size 32 -> 64 together \(1 with a valid measurement\)"
expect_match ledger-audit-1.8 "noise floor sentence" "$out" \
	"Noise floor 0\.001406 val_bpb: twice the pooled sd 0\.000703 of 1 repeat group \(4 runs\)"

# json keeps arrays and numbers
expect_code ledger-audit-2.0 "json output" 1 "$LEDGER" audit --campaign qwen-compile --format json
printf '%s' "$out" > f.json
j=$(sqlite3 :memory: "SELECT json_extract(readfile('f.json'), '\$[2].runs[4]') || '|' || json_extract(readfile('f.json'), '\$[0].values.best') || '|' || json_type(readfile('f.json'), '\$[1].values.records') || '|' || json_array_length(readfile('f.json'))")
expect_eq ledger-audit-2.1 "json: runs array, real and integer values, 11 findings" "q20-06|1.312003|integer|11" "$j"

# the default output: a heading line and the whole sentence
expect_code ledger-audit-3.0 "table output" 1 "$LEDGER" audit --campaign qwen-compile
expect_match ledger-audit-3.1 "heading line" "$out" "^warn  out_of_scope  qwen-compile  vars model.depth  runs q20-02, q20-03, q20-04, q20-05, q20-06$"
expect_match ledger-audit-3.2 "sentence not cut" "$out" "^  5 runs changed model.depth, which is outside the search space \(impl.\*\); they do not answer the campaign's question: keep to the search space or declare a new campaign\.$"
expect_code ledger-audit-3.3 "md output" 1 "$LEDGER" audit --campaign qwen-compile --format md
expect_match ledger-audit-3.4 "md escapes" "$out" '^\| qwen-compile \| out\\_of\\_scope \| warn \|'

# coverage: nothing in impl.* was validly tested alone
expect_code ledger-audit-4.0 "coverage" 0 "$LEDGER" audit --coverage --campaign qwen-compile --format tsv
expect_eq ledger-audit-4.1 "coverage row" "$(printf 'campaign\tglob\tvalid_alone\tattempts\tvariables_tested\nqwen-compile\timpl.*\t0\t4\t')" "$out"

# usage errors
expect_code ledger-audit-5.1 "unknown campaign" 2 "$LEDGER" audit --campaign nope
expect_eq ledger-audit-5.2 "unknown campaign message" "ledger: audit: no campaign 'nope' is declared
ledger: hint: list campaigns with 'ledger campaign list', declare one with 'ledger campaign add FILE'" "$err"
expect_code ledger-audit-5.3 "bad noise default" 2 "$LEDGER" audit --noise-default abc
expect_eq ledger-audit-5.4 "bad noise default message" "ledger: audit: --noise-default 'abc' is not a positive number" "$err"
expect_code ledger-audit-5.5 "unknown argument" 2 "$LEDGER" audit --frobnicate
expect_code ledger-audit-5.6 "help" 0 "$LEDGER" audit --help
expect_match ledger-audit-5.7 "help names the kinds" "$out" "duplicate_attempt, within_noise, impl_changed_metric, other_hardware"

# a campaign with only info rows exits 0: depth is in scope, the depth-9
# run beat the depth-10 baseline, and the stated noise floor is used
cat >clean.json <<'EOF'
{"name":"depth-clean","hardware":"NVIDIA GeForce RTX 3090","baseline":"q20-06",
 "search_space":["model.*"],"noise_default":0.002}
EOF
"$LEDGER" campaign add clean.json >/dev/null
"$LEDGER" campaign assign depth-clean q20-06 q20-04 >/dev/null
expect_code ledger-audit-6.1 "info-only campaign exits 0" 0 "$LEDGER" audit --campaign depth-clean --format tsv
expect_eq ledger-audit-6.2 "info rows: budget and stated noise floor" "budget	info
noise_floor	info" "$(printf '%s\n' "$out" | awk -F'\t' 'NR>1{print $2 "\t" $3}')"
expect_code ledger-audit-6.3 "override noise default" 0 "$LEDGER" audit --campaign depth-clean --noise-default 0.5 --format tsv
expect_match ledger-audit-6.4 "override shows as the floor" "$out" "floor=0.500000"

# all campaigns, and one that runs name but nobody declared
printf '%s\n' '{"schema":"runrec/1","run_id":"stray-1","campaign":"ghost","status":"crash","started_at":"2026-03-17T00:00:00Z"}' >stray.jsonl
"$LEDGER" ingest stray.jsonl >/dev/null 2>&1
expect_code ledger-audit-7.1 "audit every campaign" 1 "$LEDGER" audit --format tsv
expect_eq ledger-audit-7.2 "campaigns in name order, undeclared last" "depth-clean
qwen-compile
ghost" "$(printf '%s\n' "$out" | awk -F'\t' 'NR>1{print $1}' | uniq)"
expect_match ledger-audit-7.3 "undeclared sentence" "$out" "1 run names campaign 'ghost', which was never declared, so nothing holds it"
expect_match ledger-audit-7.3.1 "says the least declaration" "$out" 'search_space": \["\*"\]\} puts every variable in scope\), then audit it\.'
# ... and that declaration, from stdin, is enough to audit it (on a copy)
cp "${LEDGER_DB:-ledger.db}" ghost.db
echo '{"name": "ghost", "search_space": ["*"]}' | "$LEDGER" --db ghost.db campaign add - >/dev/null 2>&1
expect_code ledger-audit-7.4 "the least declaration audits the campaign" 1 "$LEDGER" --db ghost.db audit --campaign ghost --format tsv
expect_match ledger-audit-7.4.1 "its one crash measured nothing to beat" "$out" "^ghost	no_improvement	warn	"
expect_code ledger-audit-7.4.2 "and nothing is undeclared any more" 0 "$LEDGER" --db ghost.db audit --kind undeclared

# a declared baseline that is not in the ledger stops that campaign's audit
printf '%s\n' '{"name":"lost-base","baseline":"q99","search_space":["impl.*"]}' >lost.json
"$LEDGER" campaign add lost.json >/dev/null 2>&1
expect_code ledger-audit-8.1 "unknown baseline is a usage error" 2 "$LEDGER" audit --campaign lost-base
expect_eq ledger-audit-8.2 "unknown baseline message" "ledger: audit: campaign 'lost-base': baseline 'q99' is not a run in the ledger
ledger: hint: ingest the baseline run, or declare \"baseline\": \"first valid run\"" "$err"
expect_code ledger-audit-8.3 "campaign add warned about it" 0 "$LEDGER" campaign add lost.json
expect_eq ledger-audit-8.4 "add warning" "ledger: warning: campaign add: lost.json: baseline 'q99' is not in the ledger yet; the audit needs it ingested" "$err"
expect_code ledger-audit-8.5 "audit all: the broken campaign is skipped, partial" 1 "$LEDGER" audit --format tsv
expect_eq ledger-audit-8.6 "the others are still audited" "depth-clean
qwen-compile
ghost" "$(printf '%s\n' "$out" | awk -F'\t' 'NR>1{print $1}' | uniq)"
expect_match ledger-audit-8.7 "and the skipped one is named" "$err" "campaign 'lost-base': baseline 'q99' is not a run"

# text from records is escaped wherever it lands
printf '%s\n' '{"schema":"runrec/1","run_id":"evil|id","parent":"q20-01","campaign":"esc","status":"crash","description":"try <b>this</b>\nand | that","started_at":"2026-03-17T00:00:00Z"}' >esc.jsonl
"$LEDGER" ingest esc.jsonl >/dev/null 2>&1
printf '%s\n' '{"name":"esc","search_space":["*"],"noise_default":0.01}' >esc.json
"$LEDGER" campaign add esc.json >/dev/null
expect_code ledger-audit-9.1 "md" 1 "$LEDGER" audit --campaign esc --format md
expect_match ledger-audit-9.2 "md: pipes and tags escaped, one line per finding" "$out" \
	"^\| esc \| unresolved \| warn \| evil\\\\\|id \|  \| 'try &lt;b&gt;this&lt;/b&gt; and \\\\\| that' was attempted 1 time"
expect_code ledger-audit-9.3 "text" 1 "$LEDGER" audit --campaign esc
expect_match ledger-audit-9.4 "text: the newline in the description is flattened" "$out" "^  'try <b>this</b> and \| that' was attempted"
expect_match ledger-audit-9.5 "no valid run at all: no baseline to beat" "$out" \
	"^  No run of the campaign has a valid val_bpb measurement on any hardware, so there is no baseline to beat"
expect_match ledger-audit-9.6 "one record, singular" "$out" "^  1 record used \(no record_budget declared\)"

# --kind picks findings; the exit status counts only those
expect_code ledger-audit-10.1 "--kind unresolved" 1 "$LEDGER" audit --campaign qwen-compile --kind unresolved --format tsv
expect_eq ledger-audit-10.2 "only the two unresolved rows" "unresolved	q20-09
unresolved	q20-10" "$(printf '%s\n' "$out" | awk -F'\t' 'NR>1{print $2 "\t" $4}')"
expect_code ledger-audit-10.3 "info kinds only: exit 0" 0 "$LEDGER" audit --campaign qwen-compile --kind repeat_noise --kind=noise_floor --format tsv
expect_eq ledger-audit-10.4 "two info rows" "2" "$(printf '%s\n' "$out" | awk 'NR>1' | wc -l | tr -d ' ')"
expect_code ledger-audit-10.5 "unknown kind" 2 "$LEDGER" audit --kind nonsense
expect_eq ledger-audit-10.6 "unknown kind message" "ledger: audit: --kind 'nonsense' is not a finding kind
ledger: hint: kinds are listed in 'ledger audit --help'" "$err"
