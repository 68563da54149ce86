# t-ledger-repeats.sh — `ledger repeats` on the query fixture. The RTX 3090
# baseline was measured three times (1.100, 1.104, 1.098) and once more as
# a NaN run; mean and sample sd are worked out by hand below and compared
# with the output, along with filters, --min-n and usage errors.
. "$ROOT/tests/lib.sh"
cp "$FIXTURES/query/runs.jsonl" . || exit 1
"$LEDGER" ingest runs.jsonl >/dev/null 2>&1 || { not_ok ledger-repeats-0 "fixture ingests"; exit 1; }

# By hand: mean = (1.100 + 1.104 + 1.098) / 3 = 3.302 / 3 = 1.1006667
# deviations (x 1e-3): -2/3, +10/3, -8/3; squares sum to 168/9 = 18.667e-6
# sd = sqrt(18.667e-6 / (3 - 1)) = sqrt(9.3333e-6) = 0.0030551
# range = 1.104 - 1.098 = 0.006; the NaN run counts as failed, not in n
expect_code ledger-repeats-1.1 "repeats exits 0" 0 "$LEDGER" repeats
expect_eq ledger-repeats-1.2 "repeats table" "$(cat <<'EOT'
hardware  n  failed  mean      sd        min       max       range     description           runs
RTX 3090  3       1  1.100667  0.003055  1.098000  1.104000  0.006000  baseline on the 3090  r3090-a,r3090-b,r3090-c
EOT
)" "$out"
expect_eq ledger-repeats-1.3 "repeats json: full precision" "$(cat <<'EOT'
[
  {
    "hardware": "RTX 3090",
    "n": 3,
    "failed": 1,
    "mean": 1.100666667,
    "sd": 0.003055050463,
    "min": 1.098,
    "max": 1.104,
    "range": 0.006,
    "description": "baseline on the 3090",
    "runs": [
      "r3090-a",
      "r3090-b",
      "r3090-c"
    ]
  }
]
EOT
)" "$("$LEDGER" repeats --format json)"

# 2: filters choose the members. Until 04:40 only a and b: mean 1.102,
# sd = sqrt((0.002^2 + 0.002^2) / 1) = 0.002 * sqrt(2) = 0.0028284
expect_eq ledger-repeats-2.1 "--until keeps two members" "2	1.102000	0.002828	r3090-a,r3090-b" \
	"$("$LEDGER" repeats --until 2026-03-16T04:40:00Z --format tsv | tail -n +2 | cut -f2,4,5,10)"
expect_eq ledger-repeats-2.2 "--hardware of another class: none" "" \
	"$("$LEDGER" repeats --hardware H100 --format tsv | tail -n +2)"
expect_eq ledger-repeats-2.3 "--min-n 4: none" "" "$("$LEDGER" repeats --min-n 4 --format tsv | tail -n +2)"
expect_eq ledger-repeats-2.4 "--min-n 3 keeps the group" "3" "$("$LEDGER" repeats --min-n=3 --format tsv | tail -n +2 | cut -f2)"
# mfu_percent of the three: 41.0, 40.8, 41.1 -> mean 40.9667, sd 0.152753
expect_eq ledger-repeats-2.5 "--metric mfu_percent" "40.96666667	0.1527525232" \
	"$("$LEDGER" repeats --metric mfu_percent --format tsv | tail -n +2 | cut -f4,5)"

# 3: usage errors
expect_code ledger-repeats-3.1 "--min-n 1 is not a repeat" 2 "$LEDGER" repeats --min-n 1
expect_match ledger-repeats-3.1m "message" "$err" "^ledger: repeats: --min-n '1' is not a count of 2 or more"
expect_code ledger-repeats-3.2 "unknown option" 2 "$LEDGER" repeats --by tier

# 4: a run without a parent is keyed on its config's values, as changes_exact
# compares them (json_same): 8 and 8.0, key order, 1e-3 and 0.001, 0 and 0.0 are one configuration. Before, the key hashed the
# config's JSON text and b stood alone (a and c were a pair).
mkdir k || exit 1
cat > k/v.jsonl <<'EOT'
{"schema":"runrec/1","run_id":"a","status":"ok","hardware":{"gpu_name":"NVIDIA H100 80GB HBM3"},"code":{"commit":"abc1234"},"config":{"model.depth":8,"optim.matrix_lr":0.001,"optim.weight_decay":0,"train.seed":1},"metrics":{"val_bpb":1.01}}
{"schema":"runrec/1","run_id":"b","status":"ok","hardware":{"gpu_name":"NVIDIA H100 80GB HBM3"},"code":{"commit":"abc1234"},"config":{"optim.weight_decay":0.0,"optim.matrix_lr":1e-3,"model.depth":8.0},"metrics":{"val_bpb":1.02}}
{"schema":"runrec/1","run_id":"c","status":"ok","hardware":{"gpu_name":"NVIDIA H100 80GB HBM3"},"code":{"commit":"abc1234"},"config":{"optim.matrix_lr":1e-3,"model.depth":8,"optim.weight_decay":0},"metrics":{"val_bpb":1.03}}
{"schema":"runrec/1","run_id":"d","status":"ok","hardware":{"gpu_name":"NVIDIA H100 80GB HBM3"},"code":{"commit":"abc1234"},"config":{"optim.matrix_lr":1e-3,"model.depth":8.5,"optim.weight_decay":0},"metrics":{"val_bpb":1.04}}
EOT
"$LEDGER" --db k/k.db ingest k/v.jsonl >/dev/null 2>&1
expect_eq ledger-repeats-4.1 "8 and 8.0 (and 1e-3, key order, 0.0) are one group; 8.5 is not" \
	"3	a,b,c" "$("$LEDGER" --db k/k.db repeats --format tsv | tail -n +2 | cut -f2,10)"
# A ledger an older build filled holds b under the key of its text: the
# hash of [config, commit, diff, data, class] with 8.0 printed as 8.0.
old=$(printf '[{"model.depth":8.0,"optim.matrix_lr":0.001,"optim.weight_decay":0.0},"abc1234",null,null,"H100"]' |
	sha256sum | cut -c1-64)
sql k/k.db "UPDATE runs SET repeat_key = '$old' WHERE run_id = 'b'"
expect_eq ledger-repeats-4.2 "the old key splits the group" "2	a,c" \
	"$("$LEDGER" --db k/k.db repeats --format tsv | tail -n +2 | cut -f2,10)"
expect_eq ledger-repeats-4.3 "reinfer keys the old run again (1 key changed)" "1" \
	"$("$LEDGER" --db k/k.db reinfer --format tsv | tail -n +2 | cut -f4)"
expect_eq ledger-repeats-4.4 "after reinfer: one group again, b's key is a's" "3	a,b,c|1" \
	"$("$LEDGER" --db k/k.db repeats --format tsv | tail -n +2 | cut -f2,10)|$(sql k/k.db \
	"SELECT count(DISTINCT repeat_key) FROM runs WHERE run_id IN ('a','b','c')")"
