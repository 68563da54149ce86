# t-ledger-query.sh — `ledger query`: exact table/json/csv/md output on the
# 15-run fixture (tests/fixtures/query/runs.jsonl: H100, RTX 3090, RTX 4090
# and A100 runs, a crash, a NaN run, a 3090 repeat group, parent chains, an
# untimed run, one inferred change), every filter, ordering and limits, and
# usage errors (exit 2) including values that try to break out of the SQL.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
cp "$FIXTURES/query/runs.jsonl" . || exit 1
"$LEDGER" ingest runs.jsonl >/dev/null 2>&1 || { not_ok ledger-query-0 "fixture ingests"; exit 1; }

# run ids a query prints, space-separated, in output order
ids() { "$LEDGER" query --format tsv "$@" | tail -n +2 | cut -f1 | tr '\n' ' ' | sed 's/ $//'; }

# 1: the full listing, exact (time order; the untimed a100-late last; '~'
# marks the change inferred from a description; crash/nan have no val_bpb)
expect_code ledger-query-1.1 "query exits 0" 0 "$LEDGER" query
expect_eq ledger-query-1.2 "query table output" "$(cat <<'EOT'
run_id      finished_at           agent  hardware  tier    status  decision  val_bpb   changed                             description
h100-base   2026-03-16T04:05:30Z  alice  H100      xl      ok      baseline  1.010000                                      baseline
r3090-a     2026-03-16T04:15:30Z  bob    RTX 3090  medium  ok      baseline  1.100000                                      baseline on the 3090
h100-d9     2026-03-16T04:25:30Z  alice  H100      xl      ok      keep      1.005000  model.depth                         depth 8 -> 9
r3090-b     2026-03-16T04:35:30Z  bob    RTX 3090  medium  ok      discard   1.104000                                      baseline on the 3090, repeat
a100-base   2026-03-16T04:45:30Z  carol  A100      large   ok      baseline  1.050000                                      A100 baseline
r4090-a     2026-03-16T04:55:30Z  dave   RTX 4090  medium  ok      baseline  1.090000                                      4090 baseline
h100-d12    2026-03-16T05:01:10Z  alice  H100      xl      crash   discard             model.depth                         depth 9 -> 12
r3090-c     2026-03-16T05:15:30Z  bob    RTX 3090  medium  ok      discard   1.098000                                      baseline on the 3090, repeat 2
h100-lr     2026-03-16T05:25:30Z  alice  H100      xl      ok      discard   1.007000  optim.embedding_lr,optim.matrix_lr  matrix LR 0.04 to 0.06 + embedding LR 0.6 to 0.8
r3090-sdpa  2026-03-17T01:05:30Z  bob    RTX 3090  medium  ok      keep      1.095000  impl.attention                      attention sdpa instead of flash
h100-mlr5   2026-03-17T02:05:30Z  alice  H100      xl      ok      keep      0.999000  optim.matrix_lr                     matrix LR 0.04 to 0.05
r3090-nan   2026-03-17T03:02:00Z  bob    RTX 3090  medium  nan     discard                                                 baseline on the 3090, repeat 3
a100-d10    2026-03-17T04:05:30Z  carol  A100      large   ok      keep      1.045000  model.depth                         depth 8 -> 10
r4090-wd    2026-03-17T05:05:30Z  dave   RTX 4090  medium  ok      discard   1.093000  ~optim.weight_decay                 weight decay 0 to 0.1
a100-late                         carol  A100      large   ok      keep      1.030000  optim.embedding_lr                  embedding LR 0.6 to 0.7 (clock unknown)
EOT
)" "$out"

# 2: json keeps numbers as numbers and missing values as null; changed is
# an array of {var, old, new, how, span} (text formats: "a,~b")
expect_eq ledger-query-2.1 "query --agent dave --format json" "$(cat <<'EOT'
[
  {
    "run_id": "r4090-a",
    "finished_at": "2026-03-16T04:55:30Z",
    "agent": "dave",
    "hardware": "RTX 4090",
    "tier": "medium",
    "status": "ok",
    "decision": "baseline",
    "val_bpb": 1.09,
    "changed": [],
    "description": "4090 baseline"
  },
  {
    "run_id": "r4090-wd",
    "finished_at": "2026-03-17T05:05:30Z",
    "agent": "dave",
    "hardware": "RTX 4090",
    "tier": "medium",
    "status": "ok",
    "decision": "discard",
    "val_bpb": 1.093,
    "changed": [
      {
        "var": "optim.weight_decay",
        "old": "0",
        "new": "0.1",
        "how": "inferred",
        "span": "weight decay 0 to 0.1"
      }
    ],
    "description": "weight decay 0 to 0.1"
  }
]
EOT
)" "$("$LEDGER" query --agent dave --format json)"

# 3: csv (CRLF lines, RFC 4180) quotes the comma in a description; md
# escapes '>' and '_'
expect_eq ledger-query-3.1 "csv output" "$(cat <<'EOT'
run_id,finished_at,agent,hardware,tier,status,decision,val_bpb,changed,description
r3090-b,2026-03-16T04:35:30Z,bob,RTX 3090,medium,ok,discard,1.104000,,"baseline on the 3090, repeat"
EOT
)" "$("$LEDGER" query --format csv --where 'val_bpb>1.1' | tr -d '\r')"
expect_eq ledger-query-3.2 "md output" "$(cat <<'EOT'
| run\_id | finished\_at | agent | hardware | tier | status | decision | val\_bpb | changed | description |
| --- | --- | --- | --- | --- | --- | --- | ---: | --- | --- |
| h100-d9 | 2026-03-16T04:25:30Z | alice | H100 | xl | ok | keep | 1.005000 | model.depth | depth 8 -&gt; 9 |
EOT
)" "$("$LEDGER" query --format md --changed model.depth --status ok --hardware H100)"

# 4: each filter alone
expect_eq ledger-query-4.1 "--agent" "r3090-a r3090-b r3090-c r3090-sdpa r3090-nan" "$(ids --agent bob)"
expect_eq ledger-query-4.2 "--campaign" "h100-base h100-d9 h100-d12 h100-lr h100-mlr5" "$(ids --campaign depth-sweep)"
expect_eq ledger-query-4.3 "--hardware class, any case" "h100-base h100-d9 h100-d12 h100-lr h100-mlr5" "$(ids --hardware h100)"
expect_eq ledger-query-4.4 "--hardware class with a space" "r4090-a r4090-wd" "$(ids --hardware 'RTX 4090')"
expect_eq ledger-query-4.5 "--hardware substring of the GPU name" \
	"r3090-a r3090-b r4090-a r3090-c r3090-sdpa r3090-nan r4090-wd" "$(ids --hardware GeForce)"
expect_eq ledger-query-4.6 "--tier" "a100-base a100-d10 a100-late" "$(ids --tier large)"
expect_eq ledger-query-4.7 "--status one" "h100-d12" "$(ids --status crash)"
expect_eq ledger-query-4.8 "--status list" "h100-d12 r3090-nan" "$(ids --status crash,nan)"
expect_eq ledger-query-4.9 "--since a day (untimed runs excluded)" \
	"r3090-sdpa h100-mlr5 r3090-nan a100-d10 r4090-wd" "$(ids --since 2026-03-17)"
expect_eq ledger-query-4.10 "--until a bare day includes that whole day" \
	"h100-base r3090-a h100-d9 r3090-b a100-base r4090-a h100-d12 r3090-c h100-lr" "$(ids --until 2026-03-16)"
expect_eq ledger-query-4.11 "--until a time is inclusive" "h100-base r3090-a h100-d9" \
	"$(ids --until 2026-03-16T04:25:30Z)"
expect_eq ledger-query-4.12 "--since and --until with times" "r3090-b a100-base" \
	"$(ids --since 2026-03-16T04:30:00Z --until=2026-03-16T04:50:00Z)"
expect_eq ledger-query-4.13 "--changed exact var" "h100-d9 h100-d12 a100-d10" "$(ids --changed model.depth)"
expect_eq ledger-query-4.14 "--changed glob includes inferred changes" \
	"h100-lr h100-mlr5 r4090-wd a100-late" "$(ids --changed 'optim.*')"
expect_eq ledger-query-4.15 "two --changed must both hold" "h100-lr" \
	"$(ids --changed optim.matrix_lr --changed optim.embedding_lr)"
expect_eq ledger-query-4.16 "--where on the val_bpb column" "h100-d9 h100-lr h100-mlr5" "$(ids --where 'val_bpb<1.01')"
expect_eq ledger-query-4.17 "--where <= includes the bound" "h100-base h100-d9 h100-lr h100-mlr5" \
	"$(ids --where 'val_bpb <= 1.01')"
expect_eq ledger-query-4.18 "--where on a record metric" "r4090-a r4090-wd" "$(ids --where 'mfu_percent>=46')"
expect_eq ledger-query-4.19 "--where = and != skip runs without the metric" \
	"r3090-a|h100-base h100-d9 r3090-b a100-base r4090-a r3090-c h100-lr r3090-sdpa h100-mlr5 a100-d10 r4090-wd a100-late" \
	"$(ids --where 'val_bpb=1.1')|$(ids --where 'val_bpb!=1.1')"
expect_eq ledger-query-4.20 "filters combine with AND" "h100-d9 h100-mlr5" \
	"$(ids --agent alice --status ok --where 'val_bpb<1.006')"
expect_eq ledger-query-4.21 "no match: header only, exit 0" "run_id	finished_at	agent	hardware	tier	status	decision	val_bpb	changed	description" \
	"$("$LEDGER" query --format tsv --agent nobody)"

# 5: order, metric and limit
expect_eq ledger-query-5.1 "--order metric: best first" "h100-mlr5 h100-d9 h100-lr" "$(ids --order metric --limit 3)"
expect_eq ledger-query-5.2 "--maximize" "r3090-b" "$(ids --order metric --maximize --limit 1)"
expect_eq ledger-query-5.3 "--limit keeps the most recent, printed oldest first" "r4090-wd a100-late" "$(ids --limit 2)"
expect_eq ledger-query-5.4 "--metric names the column and orders by it" "$(printf 'run_id\tmfu_percent\nr4090-a\t46.3\nr4090-wd\t46.1')" \
	"$("$LEDGER" query --metric mfu_percent --order metric --maximize --limit 2 --format tsv | cut -f1,8)"

# 6: usage errors (exit 2) with a message naming the problem
expect_code ledger-query-6.1 "--where without an operator" 2 "$LEDGER" query --where 'val_bpb'
expect_match ledger-query-6.1m "message" "$err" "^ledger: query: --where 'val_bpb' has no operator"
expect_code ledger-query-6.2 "--where with a non-number" 2 "$LEDGER" query --where 'val_bpb<abc'
expect_match ledger-query-6.2m "message" "$err" "^ledger: query: --where 'val_bpb<abc': 'abc' is not a number"
expect_match ledger-query-6.2h "hint" "$err" "^ledger: hint: write METRIC OP NUMBER"
expect_code ledger-query-6.3 "--where name with a quote" 2 "$LEDGER" query --where "val_bpb' OR 1<2"
expect_code ledger-query-6.4 "--tier unknown" 2 "$LEDGER" query --tier huge
expect_match ledger-query-6.4m "message" "$err" "^ledger: query: --tier 'huge' is not a VRAM tier"
expect_code ledger-query-6.5 "--status unknown" 2 "$LEDGER" query --status ok,weird
expect_code ledger-query-6.6 "--since not a date" 2 "$LEDGER" query --since 2026-13-01
expect_code ledger-query-6.7 "--limit 0" 2 "$LEDGER" query --limit 0
expect_code ledger-query-6.8 "--order unknown" 2 "$LEDGER" query --order size
expect_code ledger-query-6.9 "unknown option" 2 "$LEDGER" query --frobnicate
expect_code ledger-query-6.10 "option without its value" 2 "$LEDGER" query --agent
expect_match ledger-query-6.10m "message" "$err" "^ledger: query: option '--agent' needs a value"

# 7: values are bound, never spliced into SQL
expect_eq ledger-query-7.1 "quote in --agent matches nothing" "" "$(ids --agent "x' OR '1'='1")"
expect_code ledger-query-7.2 "SQL in --changed is a name no variable has" 2 "$LEDGER" query --changed "x') OR 1=1 --"
expect_eq ledger-query-7.2m "named as a pattern" "ledger: query: --changed 'x') OR 1=1 --': unknown variable: not in the registry, and no run changed it" \
	"$(printf '%s\n' "$err" | head -n 1)"
expect_eq ledger-query-7.3 "ledger still intact" "15" "$(sql ledger.db 'SELECT count(*) FROM runs')"
