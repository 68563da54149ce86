# t-ledger-compare.sh — `ledger compare RUN… | FILTERS`: one column per run;
# run facts, the config keys that differ (--all: every key), each run's
# changes against its parent and every metric; in every format; runs by
# reference and by the shared filters; usage errors.
. "$ROOT/tests/lib.sh"
need jq jq
cp "$FIXTURES/query/runs.jsonl" . || exit 1
"$LEDGER" ingest runs.jsonl >/dev/null 2>&1 || { not_ok ledger-compare-0 "fixture ingests"; exit 1; }

expect_code ledger-compare-1.1 "three runs, tsv" 0 "$LEDGER" --format tsv compare h100-base h100-d9 h100-lr
expect_eq ledger-compare-1.2 "the view: facts, differing config keys, changes, metrics" "section	key	h100-base	h100-d9	h100-lr
run	description	baseline	depth 8 -> 9	matrix LR 0.04 to 0.06 + embedding LR 0.6 to 0.8
run	status	ok	ok	ok
run	decision	baseline	keep	discard
run	hardware	H100	H100	H100
run	finished_at	2026-03-16T04:05:30Z	2026-03-16T04:25:30Z	2026-03-16T05:25:30Z
run	parent		h100-base	h100-d9
config	model.depth	8	9	9
config	optim.embedding_lr	0.6	0.6	0.8
config	optim.matrix_lr	0.04	0.04	0.06
changed	model.depth		8 -> 9	
changed	optim.embedding_lr			0.6 -> 0.8
changed	optim.matrix_lr			0.04 -> 0.06
metrics	val_bpb	1.01	1.005	1.007
metrics	mfu_percent	38.2	37.9	38
metrics	num_params_M	50.3	50.3	50.3
metrics	num_steps	950	880	879
metrics	peak_vram_mb	41230	44870	44870
metrics	total_seconds	325.4	325.4	325.4
metrics	total_tokens_M	499.1	499.1	499.1
metrics	training_seconds	300.1	300.1	300.1" "$out"
tsv=$out

# the other formats hold the same cells
expect_code ledger-compare-2.1 "csv" 0 "$LEDGER" --format csv compare h100-base h100-d9 h100-lr
expect_eq ledger-compare-2.2 "csv: the same cells, CRLF" "$(printf '%s\n' "$tsv" | tr '\t' ',')" "$(printf '%s' "$out" | tr -d '\r')"
expect_match ledger-compare-2.3 "(CRLF line ends)" "$(printf '%s' "$out" | od -c)" '\\r +\\n'
expect_code ledger-compare-2.4 "md" 0 "$LEDGER" --format md compare h100-base h100-d9 h100-lr
expect_eq ledger-compare-2.5 "md: header, rule, escaped cells" "| section | key | h100-base | h100-d9 | h100-lr |
| --- | --- | --- | --- | --- |
| run | description | baseline | depth 8 -&gt; 9 | matrix LR 0.04 to 0.06 + embedding LR 0.6 to 0.8 |" "$(printf '%s\n' "$out" | head -3)"
expect_eq ledger-compare-2.6 "md: a row per tsv row" "$(printf '%s\n' "$tsv" | wc -l)" "$(printf '%s\n' "$out" | sed 1d | wc -l)"
expect_code ledger-compare-2.7 "table" 0 "$LEDGER" compare h100-base h100-d9 h100-lr
col() { printf '%s\n' "$out" | awk -v pat="$1" -v word="$2" '$0 ~ pat { print index($0, word); exit }'; }
expect_eq ledger-compare-2.8 "table: aligned columns (h100-lr's column starts where its values do)" \
	"$(col '^section' h100-lr) $(col '^section' h100-lr)" "$(col '^config +optim.matrix_lr' 0.06) $(col '^metrics +val_bpb' 1.007)"
expect_code ledger-compare-2.9 "json" 0 "$LEDGER" --format json compare h100-base h100-d9 h100-lr
printf '%s\n' "$out" >c.json
expect_eq ledger-compare-2.10 "json: the runs in column order" '["h100-base","h100-d9","h100-lr"]' "$(jq -c .runs c.json)"
expect_eq ledger-compare-2.11 "json: values keep their types, differs is set" \
	'{"section":"config","key":"model.depth","differs":true,"values":[8,9,9]}' \
	"$(jq -c '.rows[] | select(.key == "model.depth" and .section == "config")' c.json)"
expect_eq ledger-compare-2.12 "json: a metric all share is not a difference" 'false [50.3,50.3,50.3]' \
	"$(jq -c '.rows[] | select(.key == "num_params_M") | "\(.differs) \(.values)"' c.json | tr -d '"')"
expect_eq ledger-compare-2.13 "json: as many rows as tsv" "$(($(printf '%s\n' "$tsv" | wc -l) - 1))" "$(jq '.rows | length' c.json)"
expect_eq ledger-compare-2.14 "json: absent is null" 'null' \
	"$(jq -c '.rows[] | select(.section == "changed" and .key == "model.depth") | .values[0]' c.json)"

# --all: every config key, the same ones marked as differing
"$LEDGER" --format json compare --all h100-base h100-d9 h100-lr >all.json
expect_eq ledger-compare-3.1 "--all: every config key" "impl.attention model.depth model.dim optim.embedding_lr optim.matrix_lr train.device_batch_size" \
	"$(jq -r '[.rows[] | select(.section == "config") | .key] | join(" ")' all.json)"
expect_eq ledger-compare-3.2 "--all: differs marks the three" "model.depth optim.embedding_lr optim.matrix_lr" \
	"$(jq -r '[.rows[] | select(.section == "config" and .differs) | .key] | join(" ")' all.json)"
expect_eq ledger-compare-3.3 "--all in tsv too" "6" "$("$LEDGER" --format tsv compare --all h100-base h100-d9 h100-lr | grep -c '^config')"

# by filters: the matching runs in time order, after the named ones, each once
expect_eq ledger-compare-4.1 "--campaign" "h100-base h100-d9 h100-d12 h100-lr h100-mlr5" \
	"$("$LEDGER" --format json compare --campaign depth-sweep | jq -r '.runs | join(" ")')"
expect_eq ledger-compare-4.2 "--changed with a glob" "h100-lr h100-mlr5" \
	"$("$LEDGER" --format json compare --changed 'optim.*' --hardware H100 | jq -r '.runs | join(" ")')"
expect_eq ledger-compare-4.3 "named runs first, a run once" "h100-mlr5 h100-base h100-d9 h100-d12 h100-lr" \
	"$("$LEDGER" --format json compare h100-mlr5 --campaign depth-sweep | jq -r '.runs | join(" ")')"
expect_code ledger-compare-4.4 "--limit 2: the two most recent" 0 "$LEDGER" --format json compare --campaign depth-sweep --limit 2
expect_eq ledger-compare-4.5 "(in time order)" "h100-lr h100-mlr5" "$(printf '%s' "$out" | jq -r '.runs | join(" ")')"
expect_eq ledger-compare-4.6 "(and says the limit cut: one warning object on stderr)" \
	"compare: more than 2 runs match; comparing the 2 most recent (--limit N)|1" \
	"$(jq -r .warning stderr.txt)|$(grep -c . stderr.txt)"
expect_code ledger-compare-4.7 "filters that match nothing" 0 "$LEDGER" --format json compare --agent nobody
expect_eq ledger-compare-4.8 "(no columns; the warning a JSON object under --format json)" \
	'[]|compare: no run matches the filters|null' \
	"$(printf '%s' "$out" | jq -c .runs)|$(jq -r .warning stderr.txt)|$(jq -r .hint stderr.txt)"
expect_eq ledger-compare-4.9 "--where on a metric" "h100-mlr5" \
	"$("$LEDGER" --format json compare --where 'val_bpb<1.0' | jq -r '.runs | join(" ")')"

# a run without a config (results.tsv) compares by its changes
printf 'commit\tval_bpb\tmemory_gb\tstatus\tdescription\na1b2c3d\t1.2\t10\tkeep\tbaseline\nb2c3d4e\t1.1\t10\tkeep\tdepth 8 to 9\n' >r.tsv
"$LEDGER" --db t.db ingest r.tsv >/dev/null 2>&1
expect_eq ledger-compare-5.1 "no config rows; the inferred change marked ~" "changed	model.depth		~8 -> 9" \
	"$("$LEDGER" --db t.db --format tsv compare a1b2c3d b2c3d4e | grep -E '^(config|changed)')"

# text from records is escaped where it lands
printf '%s\n' '{"schema":"runrec/1","run_id":"e1","status":"ok","description":"a | b <i>x</i>\tc","config":{"k":"v\u001b[31m"}}' \
	'{"schema":"runrec/1","run_id":"e2","status":"ok","config":{"k":"w"}}' >esc.jsonl
"$LEDGER" --db e.db ingest esc.jsonl >/dev/null 2>&1
expect_match ledger-compare-6.1 "md: | and < escaped" "$("$LEDGER" --db e.db --format md compare e1 e2)" '\| a \\\| b &lt;i&gt;x&lt;/i&gt; c \|'
expect_match ledger-compare-6.2 "table: the value shown, its escape character blanked" "$("$LEDGER" --db e.db compare e1 e2)" '^config +k +v \[31m +w$'
expect_no_match ledger-compare-6.3 "(no raw ESC)" "$("$LEDGER" --db e.db compare e1 e2 | od -c)" '033'

# usage errors
expect_code ledger-compare-7.1 "no runs" 2 "$LEDGER" compare
expect_code ledger-compare-7.2 "an unknown run" 2 "$LEDGER" compare h100-base nosuch
expect_match ledger-compare-7.3 "(names it)" "$err" "nosuch"
expect_code ledger-compare-7.4 "an ambiguous prefix" 2 "$LEDGER" compare h100
expect_code ledger-compare-7.5 "a bad filter value" 2 "$LEDGER" compare --tier huge
expect_code ledger-compare-7.6 "--limit 0" 2 "$LEDGER" compare --campaign depth-sweep --limit 0
expect_code ledger-compare-7.7 "an unknown option" 2 "$LEDGER" compare --bogus h100-base
expect_code ledger-compare-7.8 "one run compares with itself" 0 "$LEDGER" --format tsv compare h100-base
expect_eq ledger-compare-7.9 "(no config row differs)" "0" "$(printf '%s\n' "$out" | grep -c '^config')"
