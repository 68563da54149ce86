# t-ledger-diff.sh — `ledger diff A B` on the query fixture: only differing
# keys by default, every key with --all, absent keys as null, hardware class
# differences, json array of {section,key,a,b} with typed values, and the
# diff(1) exit status (0 same, 1 different, 2 usage or unknown run).
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
cp "$FIXTURES/query/runs.jsonl" . || exit 1
"$LEDGER" ingest runs.jsonl >/dev/null 2>&1 || { not_ok ledger-diff-0 "fixture ingests"; exit 1; }

# 1: two config changes and the metrics they moved; exit 1 = differences
expect_code ledger-diff-1.1 "differences: exit 1" 1 "$LEDGER" diff h100-base h100-lr
expect_eq ledger-diff-1.2 "diff table" "$(cat <<'EOT'
a: h100-base
b: h100-lr
section  key                 a      b
config   model.depth         8      9
config   optim.embedding_lr  0.6    0.8
config   optim.matrix_lr     0.04   0.06
metrics  mfu_percent         38.2   38
metrics  num_steps           950    879
metrics  peak_vram_mb        41230  44870
metrics  val_bpb             1.01   1.007
EOT
)" "$out"

# 2: json keeps each value's JSON type (41.0 stays a real, 410 an integer)
expect_eq ledger-diff-2.1 "diff json" "$(cat <<'EOT'
[
  {
    "section": "config",
    "key": "impl.attention",
    "a": "flash",
    "b": "sdpa"
  },
  {
    "section": "metrics",
    "key": "mfu_percent",
    "a": 41.0,
    "b": 35.2
  },
  {
    "section": "metrics",
    "key": "num_steps",
    "a": 410,
    "b": 380
  },
  {
    "section": "metrics",
    "key": "peak_vram_mb",
    "a": 22010,
    "b": 23800
  },
  {
    "section": "metrics",
    "key": "val_bpb",
    "a": 1.1,
    "b": 1.095
  }
]
EOT
)" "$("$LEDGER" diff r3090-a r3090-sdpa --format json)"

# 3: across hardware: the ledger's class is part of the hardware section;
# keys a crash never recorded show as empty (null)
expect_eq ledger-diff-3.1 "hardware rows" "$(printf '%s\n' \
	'hardware	class	RTX 3090	RTX 4090' \
	'hardware	compute_capability	8.6	8.9' \
	'hardware	gpu_mem_mb	24576	24564' \
	'hardware	gpu_name	NVIDIA GeForce RTX 3090	NVIDIA GeForce RTX 4090' \
	'hardware	host	desk-3090	desk-4090')" \
	"$("$LEDGER" diff r3090-a r4090-a --format tsv | grep '^hardware')"
expect_eq ledger-diff-3.2 "absent metrics are empty" "metrics	val_bpb	1.005	|metrics	training_seconds	300.1	61" \
	"$("$LEDGER" diff h100-d9 h100-d12 --format tsv | grep -E 'val_bpb|training_seconds' | sort -r | paste -sd'|')"
# r4090-wd has no config at all: every config key of its parent is listed
expect_eq ledger-diff-3.3 "missing config section" "6" \
	"$("$LEDGER" diff r4090-a r4090-wd --format tsv | grep -c '^config')"

# 4: --all lists every key: config 6, code 2, hardware 7 + class + tier,
# data 2, budget 1, metrics 8 = 28 rows, 3 of them marked
expect_code ledger-diff-4.1 "--all still exits 1 on differences" 1 "$LEDGER" diff --all r3090-a r3090-b --format tsv
expect_eq ledger-diff-4.2 "--all row count" "28" "$(printf '%s\n' "$out" | tail -n +2 | wc -l | tr -d ' ')"
expect_eq ledger-diff-4.3 "--all marks the differing keys" "mfu_percent num_steps val_bpb" \
	"$(printf '%s\n' "$out" | awk -F'\t' '$5 == "*" { print $2 }' | paste -sd' ')"
expect_eq ledger-diff-4.4 "--all json has differs" "true false" \
	"$("$LEDGER" diff --all r3090-a r3090-b --format json >all.json;
	   sql ledger.db "SELECT json_extract(readfile('all.json'), '\$[27].differs') || ' ' ||
		json_extract(readfile('all.json'), '\$[0].differs')" | sed 's/1/true/;s/0/false/')"

# 5: same run: no rows, exit 0
expect_code ledger-diff-5.1 "identical: exit 0" 0 "$LEDGER" diff h100-d9 h100-d9 --format tsv
expect_eq ledger-diff-5.2 "identical: header only" "section	key	a	b" "$out"

# 6: usage and references
expect_code ledger-diff-6.1 "one run: exit 2" 2 "$LEDGER" diff h100-d9
expect_match ledger-diff-6.1m "message" "$err" "^ledger: diff: expected two runs, got 1"
expect_code ledger-diff-6.2 "unknown run: exit 2" 2 "$LEDGER" diff h100-d9 nope
expect_match ledger-diff-6.2m "message" "$err" "^ledger: no run 'nope' in the ledger"
expect_code ledger-diff-6.3 "unknown option: exit 2" 2 "$LEDGER" diff --side h100-d9 h100-lr
expect_code ledger-diff-6.4 "#N references" 1 "$LEDGER" diff '#1' '#3' --format tsv
expect_eq ledger-diff-6.5 "#1 vs #3 is base vs d9" "config	model.depth	8	9" "$(printf '%s\n' "$out" | sed -n 2p)"

# 7: the table format never cuts a value: a 64-digit hash shows whole
"$LEDGER" diff --all h100-d9 h100-mlr5 >all.txt
expect_match ledger-diff-7.1 "full sha256 in the table" "$(cat all.txt)" \
	"^data +sha256 +5f1c2e9a0b7d4c3e8f6a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a +5f1c2e9a0b7d4c3e8f6a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a$"

# 8: runs by their commits (results.tsv rows have no run id of their own);
# the same resolver as show: several runs of one commit are an error
printf 'commit\tval_bpb\tstatus\tdescription\na1f3c9e\t1.0\tkeep\tbaseline\nb2c4d6e\t0.99\tkeep\tdepth 9\nb2c4d6e\t0.98\tdiscard\tdepth 9 again\n' >commits.tsv
"$LEDGER" --db c.db ingest commits.tsv --started-at 2026-03-16T04:00:00Z >/dev/null 2>&1
expect_code ledger-diff-8.1 "two commits: exit 1, they differ" 1 "$LEDGER" --db c.db diff a1f3c9e '#2'
expect_match ledger-diff-8.2 "code.commit of each side" "$out" "^code +commit +a1f3c9e +b2c4d6e$"
expect_code ledger-diff-8.3 "a commit of two runs: exit 2" 2 "$LEDGER" --db c.db diff a1f3c9e b2c4d6e
expect_match ledger-diff-8.4 "the candidates are listed" "$err" "^  #3  r-[0-9a-f]{16}  b2c4d6e  ok  depth 9 again$"
