# t-trainer-endings.sh — every way a run ends writes one runrec/1 record,
# and `ledger ingest` accepts it with the right status; usage mistakes
# found before training starts write none.
# Test plan: provoke each ending for real where it is cheap and honest:
#   nan      optim.unembedding_lr=1e30 without soft-cap: logits overflow
#   no fit   a model larger than the machine's RAM (refused before any
#            allocation), and, outside sanitizer builds (ASan needs a huge
#            address space), a ~2 GB model under `ulimit -v` 1.5 GB so malloc
#            itself fails at set-up (not less: the CUDA build maps ~0.8 GB of
#            cuBLAS): both usage errors, exit 2 and no record (the CPU path
#            allocates everything at set-up, so it has no oom ending)
#   killed   SIGTERM while training (waits for the first progress line)
#   timeout  the documented test hook RL_TRAINER_TEST_EVAL_DELAY_S slows
#            evaluation past budget + grace
#   crash    a missing data directory (phase data)
#   usage    train.device=cuda with no usable GPU: exit 2, the no-CUDA
#            message, no record
# Exit status 3 for every failed ending, and the record's failure names the
# phase; the ledger stores each status.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3

"$TRAINER" prepare-data --out sample /usr/share/common-licenses 2>/dev/null
TINY="data.path=sample model.depth=1 model.dim=32 model.heads=2 model.seq_len=32
train.device_batch_size=4 train.total_batch_size=128 train.eval_tokens=4096"
last_field() { # FIELD-REGEX: the first match of a "key":"value" pair in the last record
	tail -n 1 runs.jsonl | grep -o "$1" | head -n 1
}

# shellcheck disable=SC2086
expect_code endings-1.1 "nan: exit 3" 3 "$TRAINER" $TINY train.steps=20 optim.unembedding_lr=1e30 \
	model.softcap=0 --record runs.jsonl
expect_match endings-1.2 "nan: message" "$err" '^trainer: run ended as nan in phase forward: loss is (nan|inf|-nan) at step [0-9]+$'
expect_eq endings-1.3 "nan: record status" '"status":"nan"' "$(last_field '"status":"[a-z]*"')"
expect_eq endings-1.4 "nan: fails fast (step 1 or 2)" 1 \
	"$(tail -n 1 runs.jsonl | grep -Ec '"num_steps":[12],')"

nrec() { wc -l <runs.jsonl 2>/dev/null || echo 0; }
before=$(nrec)
# shellcheck disable=SC2086
expect_code endings-2.1 "a model larger than RAM: exit 2" 2 "$TRAINER" $TINY train.device=cpu model.dim=65536 \
	model.heads=512 model.depth=64 --record runs.jsonl
expect_match endings-2.2 "no fit: message" "$err" \
	'^trainer: train.device=cpu: the model does not fit: the model needs [0-9]+ MB .* but this machine has [0-9]+ MB of RAM$'
expect_match endings-2.2b "no fit on the CPU: the hint names the demo config" "$err" \
	'^trainer: hint: the defaults are the GPU shape; on a CPU start from the demo config: trainer --config trainer/configs/demo-cpu.conf$'
expect_eq endings-2.3 "no fit: no record" "$before" "$(nrec)"
case "$BUILD" in
*-san) ok endings-2.5 "# SKIP ulimit -v under AddressSanitizer" ;;
*)
	# shellcheck disable=SC2086
	(ulimit -v 1500000 && exec "$TRAINER" $TINY model.dim=768 model.heads=6 model.depth=12 model.seq_len=256 \
		train.device_batch_size=16 train.total_batch_size=4096 train.device=cpu --record runs.jsonl) \
		>/dev/null 2>oom.err
	expect_eq endings-2.5 "malloc fails at set-up (ulimit -v): exit 2" 2 $?
	expect_match endings-2.6 "malloc failure reported" "$(cat oom.err)" \
		'^trainer: the model does not fit on cpu: cannot allocate the model'
	expect_eq endings-2.7 "malloc failure at set-up: no record" "$before" "$(nrec)"
	;;
esac

# shellcheck disable=SC2086
"$TRAINER" $TINY train.time_budget_s=60 --record runs.jsonl >kill.out 2>kill.err &
pid=$!
i=0
while ! grep -q '^step' kill.err 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM "$pid"
wait "$pid"
expect_eq endings-3.1 "killed: exit 3" 3 $?
expect_eq endings-3.2 "killed: record status" '"status":"killed"' "$(last_field '"status":"[a-z]*"')"
expect_match endings-3.3 "killed: metrics so far" "$(tail -n 1 runs.jsonl)" '"num_steps":[1-9][0-9]*,'
expect_match endings-3.4 "killed: message names the signal" "$(tail -n 1 runs.jsonl)" '"message":"stopped by signal 15 '
expect_eq endings-3.5 "killed: no summary block" "" "$(cat kill.out)"

# Two quick steps, then evaluation slowed by the hook until total time
# passes budget 4 s + grace 0 s (robust to a slow, loaded machine).
# shellcheck disable=SC2086
expect_code endings-4.1 "timeout: exit 3" 3 env RL_TRAINER_TEST_EVAL_DELAY_S=0.3 "$TRAINER" $TINY \
	train.steps=2 train.time_budget_s=4 train.timeout_grace_s=0 train.eval_tokens=20000 --record runs.jsonl
expect_eq endings-4.2 "timeout: record status" '"status":"timeout"' "$(last_field '"status":"[a-z]*"')"
expect_eq endings-4.3 "timeout: failure phase eval" '"phase":"eval"' "$(last_field '"phase":"[a-z]*"')"

# shellcheck disable=SC2086
expect_code endings-5.1 "missing data: exit 3" 3 "$TRAINER" $TINY data.path=nowhere --record runs.jsonl
expect_match endings-5.2 "missing data: names the file" "$err" "^trainer: cannot read 'nowhere/manifest.json'|nowhere/manifest.json"
expect_match endings-5.3 "missing data: hint" "$err" '^trainer: hint: prepare data first: trainer prepare-data'
expect_eq endings-5.4 "missing data: record status crash" '"status":"crash"' "$(last_field '"status":"[a-z]*"')"
expect_eq endings-5.5 "missing data: phase data" '"phase":"data"' "$(last_field '"phase":"[a-z]*"')"

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
	ok endings-6.1 "# SKIP a GPU is present, train.device=cuda would train"
else
	before=$(nrec)
	# shellcheck disable=SC2086
	expect_code endings-6.1 "cuda without GPU: exit 2" 2 "$TRAINER" $TINY train.device=cuda --record runs.jsonl
	expect_match endings-6.2 "cuda without GPU: message" "$err" '^trainer: train.device=cuda: no CUDA GPU: .+'
	expect_match endings-6.3 "cuda without GPU: hint" "$err" '^trainer: hint: use train.device=cpu'
	expect_eq endings-6.4 "cuda without GPU: no record" "$before" "$(nrec)"
	# shellcheck disable=SC2086
	expect_code endings-6.5 "auto falls back to the CPU" 0 "$TRAINER" $TINY train.device=auto train.steps=2 --no-record
fi

expect_code endings-7.1 "ledger ingests every ending" 0 "$LEDGER" ingest --db l.db runs.jsonl
n=$(wc -l <runs.jsonl)
expect_eq endings-7.2 "one record per run, all stored" "$n" "$(sql l.db 'SELECT count(*) FROM runs')"
expect_eq endings-7.3 "statuses stored" "crash killed nan timeout" \
	"$(sql l.db 'SELECT DISTINCT status FROM runs ORDER BY status' | tr '\n' ' ' | sed 's/ $//')"
