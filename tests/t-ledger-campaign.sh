# t-ledger-campaign.sh — `ledger campaign add|list|show|assign`.
# Test plan: declaring the seed campaign (exact list row, hardware name
# normalised to its class); replacing a declaration; each invalid field is
# reported with the file and field, nothing stored, exit 2; show prints the
# declaration and the runs in time order; assign resolves every reference
# before writing (one typo assigns nothing), is idempotent, and assigned
# runs count as members; verb and argument errors exit 2.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
A="$FIXTURES/audit"
export LEDGER_DB="$PWD/ledger.db"
"$LEDGER" ingest "$A/seed.jsonl" >/dev/null

expect_code ledger-campaign-1.1 "add" 0 "$LEDGER" campaign add "$A/campaign.json"
expect_eq ledger-campaign-1.2 "add message" "declared campaign 'qwen-compile'" "$out"
expect_code ledger-campaign-1.3 "list" 0 "$LEDGER" campaign list --format tsv
expect_eq ledger-campaign-1.4 "list row: 10 runs (from their campaign field), 7 valid" \
	"$(printf 'name\tmetric\tdirection\thardware\tsearch_space\trecord_budget\tn_runs\tn_valid\nqwen-compile\tval_bpb\tmin\tRTX 3090\timpl.*\t10\t10\t7')" "$out"

# replace: same name, new spec; hardware given as a full GPU name
cat >other.json <<'EOF'
{"name":"batch-study","metric":"val_bpb","direction":"min","hardware":"NVIDIA GeForce RTX 3090",
 "baseline":"first valid run","search_space":["train.device_batch_size","impl.recompute"],
 "bundles":[["train.device_batch_size","impl.recompute"]],"record_budget":4}
EOF
expect_code ledger-campaign-2.1 "add a second campaign" 0 "$LEDGER" campaign add other.json
sed 's/"record_budget":4/"record_budget":6/' other.json >other2.json
expect_code ledger-campaign-2.2 "re-adding replaces" 0 "$LEDGER" campaign add other2.json
expect_eq ledger-campaign-2.2a "replace message" "replaced campaign 'batch-study'" "$out"
expect_eq ledger-campaign-2.3 "one row per name, new budget, hardware class" "batch-study	RTX 3090	6	0
qwen-compile	RTX 3090	10	10" "$("$LEDGER" campaign list --format tsv | awk -F'\t' 'NR>1{print $1 "\t" $4 "\t" $6 "\t" $7}')"

# invalid declarations: every problem, with file and field; nothing stored
cat >bad.json <<'EOF'
{"name":"bad","direction":"down","search_space":["impl *"],"record_budget":-1,"budjet":3}
EOF
expect_code ledger-campaign-3.1 "invalid declaration is a usage error" 2 "$LEDGER" campaign add bad.json
expect_eq ledger-campaign-3.2 "each problem names file and field" "ledger: campaign add: bad.json: field 'budjet': unknown field (known: name, metric, direction, hardware, baseline, search_space, bundles, record_budget, noise_default, description)
ledger: campaign add: bad.json: field 'direction': expected \"min\" or \"max\"
ledger: campaign add: bad.json: field 'search_space': item 1 is not a variable glob (letters, digits, '.', '_', '-', '*', '?')
ledger: campaign add: bad.json: field 'record_budget': expected a positive whole number of records
ledger: hint: see 'ledger campaign --help' or docs/audit.md for the fields" "$err"
expect_eq ledger-campaign-3.3 "nothing stored" "0" "$(sql ledger.db "SELECT count(*) FROM campaigns WHERE name = 'bad'")"
printf '{"name":' >trunc.json
expect_code ledger-campaign-3.4 "broken JSON" 2 "$LEDGER" campaign add trunc.json
expect_match ledger-campaign-3.5 "broken JSON message has file and line" "$err" "^ledger: campaign add: trunc.json: line 1: invalid JSON"
expect_code ledger-campaign-3.6 "missing file" 2 "$LEDGER" campaign add nope.json
expect_match ledger-campaign-3.7 "missing file message" "$err" "cannot open 'nope.json'"
expect_code ledger-campaign-3.8 "from stdin" 0 sh -c "printf '%s' '{\"name\":\"stdin-c\",\"search_space\":[\"optim.*\"]}' | \"$LEDGER\" campaign add -"

# show
expect_code ledger-campaign-4.1 "show" 0 "$LEDGER" campaign show qwen-compile --format tsv
expect_match ledger-campaign-4.2 "show: search space" "$out" "^campaign	search_space	\[\"impl\.\*\"\]	+$"
expect_match ledger-campaign-4.3 "show: baseline" "$out" "^campaign	baseline	q20-01	+$"
expect_match ledger-campaign-4.3a "show: description kept" "$out" "^campaign	description	Qwen3.8 20: compile and kernel efficiency only	+$"
expect_eq ledger-campaign-4.4 "show: runs in time order with changed variables" \
	"q20-01	ok	
q20-07	ok	impl.recompute,train.device_batch_size
q20-10	crash	impl.compile_mode" \
	"$(printf '%s\n' "$out" | awk -F'\t' '$1=="run"&&($4=="q20-01"||$4=="q20-07"||$4=="q20-10"){print $4 "\t" $5 "\t" $9}')"
expect_code ledger-campaign-4.5 "show json" 0 "$LEDGER" campaign show batch-study --format json
printf '%s' "$out" >show.json
expect_eq ledger-campaign-4.6 "show json: spec and runs" "first valid run|6|0" \
	"$(sqlite3 :memory: "SELECT json_extract(readfile('show.json'), '\$.baseline') || '|' || json_extract(readfile('show.json'), '\$.record_budget') || '|' || json_array_length(readfile('show.json'), '\$.members')")"
expect_code ledger-campaign-4.7 "show unknown" 2 "$LEDGER" campaign show nope
expect_eq ledger-campaign-4.8 "show unknown message" "ledger: no campaign 'nope' is declared
ledger: hint: list campaigns with 'ledger campaign list', declare one with 'ledger campaign add FILE'" "$err"

# assign: all or nothing, idempotent, by id, prefix or #N
expect_code ledger-campaign-5.1 "assign with one bad reference" 2 "$LEDGER" campaign assign batch-study q20-07 q20-99
expect_match ledger-campaign-5.2 "names the bad reference" "$err" "no run 'q20-99' in the ledger"
expect_match ledger-campaign-5.3 "says nothing was assigned" "$err" "nothing was assigned"
expect_eq ledger-campaign-5.4 "nothing assigned" "0" "$(sql ledger.db "SELECT count(*) FROM campaign_runs")"
expect_code ledger-campaign-5.5 "assign" 0 "$LEDGER" campaign assign batch-study q20-07 q20-08 '#1'
expect_eq ledger-campaign-5.6 "assign message" "assigned 3 runs to campaign 'batch-study'" "$out"
expect_code ledger-campaign-5.7 "assign again" 0 "$LEDGER" campaign assign batch-study q20-07
expect_eq ledger-campaign-5.8 "idempotent" "assigned 0 runs to campaign 'batch-study' (1 already assigned)" "$out"
expect_eq ledger-campaign-5.9 "assigned runs are members" "3	2" \
	"$("$LEDGER" campaign list --format tsv | awk -F'\t' '$1=="batch-study"{print $7 "\t" $8}')"
expect_code ledger-campaign-5.10 "assign to an undeclared campaign" 2 "$LEDGER" campaign assign nope q20-01
# the bundle makes the checkpointing+batch pair one coherent change here
expect_code ledger-campaign-5.11 "audit of the bundled campaign" 1 "$LEDGER" audit --campaign batch-study --format tsv
expect_no_match ledger-campaign-5.12 "bundled pair is not confounded" "$out" "confounded"

# verbs
expect_code ledger-campaign-6.1 "no verb" 2 "$LEDGER" campaign
expect_code ledger-campaign-6.2 "unknown verb" 2 "$LEDGER" campaign remove x
expect_eq ledger-campaign-6.3 "unknown verb message" "ledger: campaign: 'remove' is not a verb (add, list, show, assign)" "$err"
expect_code ledger-campaign-6.4 "assign needs runs" 2 "$LEDGER" campaign assign batch-study
expect_match ledger-campaign-6.5 "argument message" "$err" "campaign assign: expected NAME RUN"
expect_code ledger-campaign-6.6 "list takes no arguments" 2 "$LEDGER" campaign list extra
expect_code ledger-campaign-6.7 "help" 0 "$LEDGER" campaign --help
expect_match ledger-campaign-6.8 "help first line" "$(printf '%s\n' "$out" | head -n 1)" "^usage: ledger campaign add FILE"

# the valid count follows the campaign's metric (here one from the record)
printf '%s\n' '{"name":"wall","metric":"total_seconds","search_space":["impl.*"]}' >wall.json
"$LEDGER" campaign add wall.json >/dev/null
"$LEDGER" campaign assign wall q20-01 q20-08 q20-09 >/dev/null
expect_eq ledger-campaign-7.1 "valid counts the campaign's metric" "3	1" \
	"$("$LEDGER" campaign list --format tsv | awk -F'\t' '$1=="wall"{print $7 "\t" $8}')"
printf '%s\n' '{"name":"bad-metric","metric":"val bpb","search_space":["impl.*"]}' >badm.json
expect_code ledger-campaign-7.2 "metric names are checked" 2 "$LEDGER" campaign add badm.json
expect_match ledger-campaign-7.3 "metric message" "$err" "field 'metric': 'val bpb' is not a metric name"
