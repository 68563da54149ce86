# t-ledger-filters.sh — the filters on anything recorded (docs/ledger.md#filters):
# --where over config variables, run fields and metrics, as numbers or text;
# lists and repeated options; dates people type against a fixed clock
# (RUNLEDGER_NOW); unknown keys as exit 2 with "did you mean"; exact stderr.
# Ledger: the 15-run query fixture (tests/fixtures/query/runs.jsonl; one
# change, optim.weight_decay 0 -> 0.1, only inferred from its description)
# plus tests/fixtures/filters/extra.jsonl: x-forge (2026-03-05, H100 x2,
# model.depth 12.0, the unregistered key model.n_kv_head, impl.recompute
# true, metric my_score 3) and x-titan (2026-02-20, A100, recompute false).
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
need jq jq
cp "$FIXTURES/query/runs.jsonl" "$FIXTURES/filters/extra.jsonl" . || exit 1
"$LEDGER" ingest runs.jsonl extra.jsonl >/dev/null 2>&1 || { not_ok ledger-filters-0 "fixtures ingest"; exit 1; }
export RUNLEDGER_NOW=2026-03-17T12:00:00Z

# run ids a query prints, space-separated, in output order
ids() { "$LEDGER" query --format tsv "$@" | tail -n +2 | cut -f1 | tr '\n' ' ' | sed 's/ $//'; }

# 1: config variables, numbers compared as numbers
expect_eq ledger-filters-1.1 "= on a number (12.0 is 12)" "x-forge h100-d12" "$(ids --where 'model.depth = 12')"
expect_eq ledger-filters-1.2 ">= on a number" "x-forge h100-d12 a100-d10 a100-late" "$(ids --where 'model.depth>=10')"
expect_eq ledger-filters-1.3 "< on a real" "h100-base r3090-a h100-d9 r3090-b a100-base r4090-a h100-d12 r3090-c r3090-sdpa r3090-nan a100-d10 a100-late" \
	"$(ids --where 'optim.matrix_lr < 0.05')"
expect_eq ledger-filters-1.4 "== is =" "$(ids --where 'model.depth=9')" "$(ids --where 'model.depth == 9')"
expect_eq ledger-filters-1.5 "!= skips runs that recorded no value" "x-forge" \
	"$(ids --where 'model.n_kv_head != 3')"
expect_eq ledger-filters-1.6 "a run without the key: the value of its change (inferred from the description)" \
	"r4090-wd" "$(ids --where 'optim.weight_decay = 0.1')"
expect_eq ledger-filters-1.7 "without a recorded value or change, no match" "" "$(ids --where 'optim.weight_decay = 0')"
expect_eq ledger-filters-1.8 "an alias, one with a space and autoresearch's name resolve to the key" \
	"a100-d10 a100-late|h100-mlr5|h100-mlr5" \
	"$(ids --where 'depth = 10')|$(ids --where 'matrix LR = 0.05')|$(ids --where 'MATRIX_LR=0.05')"
expect_eq ledger-filters-1.9 "config.KEY" "a100-d10 a100-late" "$(ids --where 'config.model.depth=10')"
expect_eq ledger-filters-1.10 "a key the registry lacks, recorded by a run" "x-forge" "$(ids --where 'model.n_kv_head = 4')"

# 2: text compared as text; ~ is a glob
expect_eq ledger-filters-2.1 "= on a choice" "r3090-sdpa" "$(ids --where 'impl.attention = sdpa')"
expect_eq ledger-filters-2.2 "!= on a choice" "x-forge r3090-sdpa" "$(ids --where 'impl.attention != flash')"
expect_eq ledger-filters-2.3 "~ glob" "x-forge r3090-sdpa" "$(ids --where 'impl.attention ~ [sf][da]*')"
expect_eq ledger-filters-2.4 "!~ glob" "x-forge r3090-sdpa" "$(ids --where 'impl.attention !~ fl*')"
expect_eq ledger-filters-2.5 "quoted value is text" "r3090-sdpa" "$(ids --where "impl.attention = 'sdpa'")"
expect_eq ledger-filters-2.6 "booleans: true and false" "x-forge|x-titan|x-titan" \
	"$(ids --where 'impl.recompute = true')|$(ids --where 'impl.recompute = false')|$(ids --where 'impl.recompute != true')"
expect_eq ledger-filters-2.7 "a run field as text" "h100-d12" "$(ids --where 'status = crash')"
expect_eq ledger-filters-2.8 "a run field by query's column name, with a glob" "h100-lr h100-mlr5" \
	"$(ids --where 'hardware = H100' --where 'description ~ *LR*')"
expect_eq ledger-filters-2.9 "a numeric run field" "x-forge" "$(ids --where 'gpu_count >= 2')"
expect_eq ledger-filters-2.10 "a metric the run records, bare and as metrics.NAME" "x-titan x-forge|x-forge" \
	"$(ids --where 'my_score >= 1')|$(ids --where 'metrics.my_score > 2')"
expect_eq ledger-filters-2.11 "a value is bound, never SQL" "" "$(ids --where "agent = x' OR '1'='1")"
expect_eq ledger-filters-2.12 "frontier and repeats take the same --where" "x-forge|r3090-a,r3090-b,r3090-c" \
	"$("$LEDGER" frontier --where 'model.depth >= 12' --format tsv | tail -n +2 | cut -f1 | paste -sd' ')|$("$LEDGER" repeats --where 'train.device_batch_size = 16' --where 'agent = bob' --format tsv | tail -n +2 | cut -f10)"

# 3: lists and repeated options: any of the names; repeated --where: all
expect_eq ledger-filters-3.1 "--agent a,b" "x-titan x-forge" "$(ids --agent forge,titan)"
expect_eq ledger-filters-3.2 "--agent a --agent b" "x-titan x-forge" "$(ids --agent forge --agent titan)"
expect_eq ledger-filters-3.3 "spaces around names" "x-forge r4090-a r4090-wd" "$(ids --agent 'dave, forge')"
expect_eq ledger-filters-3.4 "--hardware list, each class or GPU name" "x-titan x-forge a100-base a100-d10" \
	"$(ids --hardware A100 --where 'val_bpb>1.03' --hardware h100)"
expect_eq ledger-filters-3.5 "--tier and --campaign lists" "x-titan a100-base a100-d10 a100-late|x-titan x-forge h100-base h100-d9 h100-d12 h100-lr h100-mlr5" \
	"$(ids --tier large,small)|$(ids --campaign kv --campaign depth-sweep)"
expect_eq ledger-filters-3.6 "repeated --status adds statuses" "h100-d12 r3090-nan" "$(ids --status crash --status nan)"
expect_eq ledger-filters-3.7 "repeated --where: all must hold" "x-forge" \
	"$(ids --where 'model.depth = 12' --where 'status = ok')"
expect_code ledger-filters-3.8 "an empty name in a list" 2 "$LEDGER" query --agent 'forge,'
expect_eq ledger-filters-3.8e "says so" "ledger: query: --agent 'forge,': an empty name in the list
ledger: hint: separate names with one comma: --agent forge,titan" "$err"
expect_code ledger-filters-3.9 "every item of --tier is checked" 2 "$LEDGER" query --tier large,huge
expect_eq ledger-filters-3.9e "names the item" "ledger: query: --tier 'huge' is not a VRAM tier
ledger: hint: use one of small (<=16 GB), medium (<=24), large (<=48), xl" "$err"

# 4: unknown keys are errors that name them, with "did you mean"
expect_code ledger-filters-4.1 "a typo of a variable" 2 "$LEDGER" query --where 'model.dpeth = 12'
expect_eq ledger-filters-4.1e "names it and suggests" "ledger: query: --where 'model.dpeth = 12': unknown key 'model.dpeth': not a variable, metric or run field, and no run records it
ledger: hint: did you mean 'model.depth'?" "$err"
expect_eq ledger-filters-4.1o "no output" "" "$out"
expect_code ledger-filters-4.2 "a typo of a recorded key" 2 "$LEDGER" query --where 'model.n_kv_hed = 4'
expect_eq ledger-filters-4.2e "suggests the recorded key" "ledger: hint: did you mean 'model.n_kv_head'?" "$(printf '%s\n' "$err" | tail -n 1)"
expect_code ledger-filters-4.3 "a typo of a metric" 2 "$LEDGER" query --where 'mfu_precent > 40'
expect_eq ledger-filters-4.3e "suggests the metric" "ledger: hint: did you mean 'mfu_percent'?" "$(printf '%s\n' "$err" | tail -n 1)"
expect_code ledger-filters-4.4 "nothing close" 2 "$LEDGER" query --where 'zzqx < 3'
expect_eq ledger-filters-4.4e "says what a key is" "ledger: query: --where 'zzqx < 3': unknown key 'zzqx': not a variable, metric or run field, and no run records it
ledger: hint: a key is a variable ('ledger variables' lists them), a metric (val_bpb, metrics.NAME) or a run field (agent, status, hardware)" "$err"
expect_code ledger-filters-4.5 "--changed: a typo" 2 "$LEDGER" query --changed model.dpeth
expect_eq ledger-filters-4.5e "names it" "ledger: query: --changed 'model.dpeth': unknown variable: not in the registry, and no run changed it
ledger: hint: did you mean 'model.depth'?" "$err"
expect_code ledger-filters-4.6 "--changed: a glob matching nothing" 2 "$LEDGER" query --changed 'modle.*'
expect_eq ledger-filters-4.6e "says so" "ledger: query: --changed 'modle.*' matches no variable: none of the registry's, and no run changed one
ledger: hint: 'ledger variables' lists the variables; 'impl.*' matches every impl. one" "$err"
expect_code ledger-filters-4.7 "a registry key no run changed is fine" 0 "$LEDGER" query --changed model.qk_norm
expect_code ledger-filters-4.8 "frontier checks keys too" 2 "$LEDGER" frontier --where 'model.dpeth = 12'
expect_code ledger-filters-4.9 "repeats checks keys too" 2 "$LEDGER" repeats --where 'metrics.nothing > 1'
expect_eq ledger-filters-4.9e "names the metric" "ledger: repeats: --where 'metrics.nothing > 1': unknown key 'nothing': not a variable, metric or run field, and no run records it" \
	"$(printf '%s\n' "$err" | head -n 1)"
expect_code ledger-filters-4.10 "--metric: a typo" 2 "$LEDGER" query --metric mfu_precent
expect_eq ledger-filters-4.10e "names it and suggests" "ledger: query: --metric 'mfu_precent': unknown metric: not a common one, and no run records it
ledger: hint: did you mean 'mfu_percent'?" "$err"
expect_code ledger-filters-4.11 "--metric: nothing close" 2 "$LEDGER" repeats --metric zzqx
expect_eq ledger-filters-4.11e "says where metrics are" "ledger: hint: 'ledger show RUN' lists a run's metrics" "$(printf '%s\n' "$err" | tail -n 1)"
expect_eq ledger-filters-4.12 "--metric a run records" "x-titan x-forge" \
	"$("$LEDGER" frontier --metric my_score --maximize --format tsv | tail -n +2 | cut -f1 | paste -sd' ')"

# 5: values of the wrong type, malformed conditions
expect_code ledger-filters-5.1 "text for a number" 2 "$LEDGER" query --where 'model.depth = deep'
expect_eq ledger-filters-5.1e "says so" "ledger: query: --where 'model.depth = deep': 'deep' is not a number
ledger: hint: 'model.depth' is a number: write e.g. --where 'model.depth >= 2'" "$err"
expect_code ledger-filters-5.2 "a boolean is true or false" 2 "$LEDGER" query --where 'impl.recompute = yes'
expect_eq ledger-filters-5.2e "says so" "ledger: query: --where 'impl.recompute = yes': 'impl.recompute' is true or false
ledger: hint: write KEY OP VALUE, e.g. --where 'model.depth >= 12' or --where 'impl.attention = flash' (OP: < <= > >= = != ~ !~)" "$err"
expect_code ledger-filters-5.3 "a glob on a metric" 2 "$LEDGER" query --where 'val_bpb ~ 1*'
expect_eq ledger-filters-5.3e "says so" "ledger: query: --where 'val_bpb ~ 1*': 'val_bpb' is a number, and '~' matches text" \
	"$(printf '%s\n' "$err" | head -n 1)"
expect_code ledger-filters-5.4 "no value" 2 "$LEDGER" query --where 'agent ='
expect_eq ledger-filters-5.4e "says so" "ledger: query: --where 'agent =': no value after '='" "$(printf '%s\n' "$err" | head -n 1)"
expect_code ledger-filters-5.5 "no key" 2 "$LEDGER" query --where '= 3'
expect_eq ledger-filters-5.5e "says so" "ledger: query: --where '= 3': '' is not a key" "$(printf '%s\n' "$err" | head -n 1)"
expect_code ledger-filters-5.6 "a key with a quote" 2 "$LEDGER" query --where "agent' OR 1 = 1"
expect_eq ledger-filters-5.7 "ledger intact" "17" "$(sql ledger.db 'SELECT count(*) FROM runs')"

# 6: dates people type; the clock is RUNLEDGER_NOW=2026-03-17T12:00:00Z
expect_eq ledger-filters-6.1 "--since today" "r3090-sdpa h100-mlr5 r3090-nan a100-d10 r4090-wd" "$(ids --since today)"
expect_eq ledger-filters-6.2 "yesterday: the whole day" "h100-base r3090-a h100-d9 r3090-b a100-base r4090-a h100-d12 r3090-c h100-lr" \
	"$(ids --since yesterday --until yesterday)"
expect_eq ledger-filters-6.3 "--since -8h" "a100-d10 r4090-wd" "$(ids --since -8h)"
expect_eq ledger-filters-6.4 "--since -2w --until=-1d" "x-forge h100-base r3090-a h100-d9 r3090-b a100-base r4090-a h100-d12 r3090-c h100-lr" \
	"$(ids --since -2w --until=-1d)"
expect_eq ledger-filters-6.5 "-7h, -420m, -3w" "r4090-wd|r4090-wd|x-titan" "$(ids --since -7h)|$(ids --since -420m)|$(ids --until -3w)"
expect_eq ledger-filters-6.6 "a month: --until through its last day" "x-titan|x-forge" "$(ids --until 2026-02)|$(ids --since 2026-03 --until 2026-03-05)"
expect_eq ledger-filters-6.7 "a year" "" "$(ids --until 2025)"
expect_eq ledger-filters-6.8 "repeated --since keeps the later, --until the earlier" "h100-lr r3090-sdpa" \
	"$(ids --since 2026-02 --since 2026-03-16T05:20:00Z --until 2026-03-18 --until 2026-03-17T02:00:00Z)"
expect_eq ledger-filters-6.9 "now" "" "$(ids --since now)"
expect_code ledger-filters-6.10 "a month needs two digits" 2 "$LEDGER" query --since 2026-3
expect_eq ledger-filters-6.10e "says so, with the forms" "ledger: query: --since '2026-3' is not a date
ledger: hint: write 2026-03-16, 2026-03-16T04:00:00Z, 2026-03 (a month), today, yesterday, now or -3d / -12h / -2w / -30m (before now); times are UTC" "$err"
expect_code ledger-filters-6.11 "an unknown unit" 2 "$LEDGER" query --until -3y
expect_code ledger-filters-6.12 "month 13" 2 "$LEDGER" query --since 2026-13
expect_code ledger-filters-6.13 "frontier takes them" 0 "$LEDGER" frontier --since yesterday

# 9: the filters select the same runs in every output format (the format
# only renders the rows): ids read back from table, csv, json and md
f9() { "$LEDGER" query --where 'model.depth >= 10' --agent forge,titan,bob,alice --since 2026-02 "$@"; }
want=$(ids --where 'model.depth >= 10' --agent forge,titan,bob,alice --since 2026-02 | tr ' ' '\n' | sort | paste -sd' ')
expect_match ledger-filters-9.0 "the filter selects some runs" "$want" '^[^ ]+( [^ ]+)*$'
expect_eq ledger-filters-9.1 "table" "$want" "$(f9 --format table | tail -n +2 | awk '{print $1}' | sort | paste -sd' ')"
expect_eq ledger-filters-9.2 "csv" "$want" "$(f9 --format csv | tail -n +2 | cut -d, -f1 | sort | paste -sd' ')"
expect_eq ledger-filters-9.3 "json" "$want" "$(f9 --format json | jq -r '.[].run_id' | sort | paste -sd' ')"
expect_eq ledger-filters-9.4 "md" "$want" "$(f9 --format md | tail -n +3 | cut -d'|' -f2 | tr -d ' ' | sort | paste -sd' ')"
