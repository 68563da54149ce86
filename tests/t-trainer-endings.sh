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
n=$(grep -o '"run_id":"[^"]*"' runs.jsonl | sort -u | wc -l)
expect_eq endings-7.2 "one run per run_id, all stored" "$n" "$(sql l.db 'SELECT count(*) FROM runs')"
expect_match endings-7.2b "the running records of the runs that trained were ended by their final ones" "$out" \
	'^runs.jsonl: [0-9]+ new, 0 already present, 0 quarantined, [1-9][0-9]* running runs? ended \(runrec\)$'
expect_eq endings-7.3 "statuses stored" "crash killed nan timeout" \
	"$(sql l.db 'SELECT DISTINCT status FROM runs ORDER BY status' | tr '\n' ' ' | sed 's/ $//')"

# ---- every ending leaves a record: running at start, then the final one --
# Signals the process can catch end as killed with a final record: SIGHUP
# (the terminal closed), SIGPIPE (progress read by a pipe that closed) and
# SIGTERM at once after start (the handlers are installed first thing:
# the test waits only until /proc says SIGTERM is caught). SIGKILL cannot
# be caught: the running record written at start stays, and the ledger
# shows it lost once its budget plus grace has passed (RUNLEDGER_NOW sets
# the clock that is judged against).
: >sig.jsonl
wait_step() { # PID ERRFILE: until the first progress line (30 s at most)
	i=0
	while ! grep -q '^step' "$2" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
}
# shellcheck disable=SC2086
"$TRAINER" $TINY train.time_budget_s=60 --record sig.jsonl >/dev/null 2>hup.err & pid=$!
wait_step "$pid" hup.err
kill -HUP "$pid"
wait "$pid"
expect_eq endings-8.1 "SIGHUP: exit 3" 3 $?
expect_match endings-8.2 "SIGHUP: final record killed, naming the signal" "$(tail -n 1 sig.jsonl)" \
	'"status":"killed".*"message":"stopped by signal 1 \(SIGHUP\) after [1-9][0-9]* steps"'

# SIGPIPE for real: stderr is a pipe whose reader reads one line and goes
# shellcheck disable=SC2086
{ "$TRAINER" $TINY train.time_budget_s=60 --record sig.jsonl >/dev/null; echo $? >pipe.code; } 2>&1 | head -n 1 >/dev/null
expect_eq endings-8.3 "SIGPIPE: exit 3 (not 141)" 3 "$(cat pipe.code)"
expect_match endings-8.4 "SIGPIPE: final record killed, naming the signal" "$(tail -n 1 sig.jsonl)" \
	'"status":"killed".*"message":"stopped by signal 13 \(SIGPIPE\) after [0-9]+ steps"'

caught_term() { # PID: 1 once the process catches SIGTERM (SigCgt bit 15)
	mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
	echo $(((0x${mask:-0} >> 14) & 1))
}
# shellcheck disable=SC2086
"$TRAINER" $TINY train.time_budget_s=60 --record sig.jsonl >/dev/null 2>early.err & pid=$!
i=0 # polled every 10 ms, for 20 s at most (a loaded machine)
while [ "$(caught_term "$pid")" != 1 ] && [ $i -lt 2000 ]; do sleep 0.01; i=$((i + 1)); done
echo "# SIGTERM caught after ~$((i * 10)) ms of polling"
kill -TERM "$pid"
wait "$pid"
expect_eq endings-8.5 "SIGTERM at once after start: exit 3" 3 $?
# How far the run got depends on the machine: on a fast one the tiny
# model has trained a step within the ~10 ms the polling takes. Either way
# the final record is killed, names SIGTERM, and counts exactly the steps
# the progress lines show.
last=$(tail -n 1 sig.jsonl)
steps=$(grep -c '^step' early.err)
if [ "$steps" -eq 0 ]; then
	echo "# the signal landed before the first step"
	expect_match endings-8.6 "early SIGTERM: final record killed before the first step" "$last" \
		'"status":"killed".*"failure":\{"phase":"startup","message":"stopped by signal 15 \(SIGTERM\) before the first step"\}'
else
	echo "# the signal landed after $steps steps"
	expect_match endings-8.6 "early SIGTERM: final record killed after the steps shown" "$last" \
		"\"status\":\"killed\".*\"failure\":\\{\"phase\":\"forward\",\"message\":\"stopped by signal 15 \\(SIGTERM\\) after $steps steps\"\\}"
fi
expect_eq endings-8.7 "early SIGTERM: the record counts the steps trained" "$steps" \
	"$(printf '%s\n' "$last" | grep -o '"num_steps":[0-9]*' | cut -d: -f2)"

# SIGKILL: only the running record is left
# shellcheck disable=SC2086
"$TRAINER" $TINY train.time_budget_s=60 train.timeout_grace_s=30 --record kill9.jsonl >/dev/null 2>kill9.err & pid=$!
wait_step "$pid" kill9.err
kill -KILL "$pid"
wait "$pid"
expect_eq endings-9.1 "SIGKILL: exit 137" 137 $?
expect_eq endings-9.2 "SIGKILL: one record, status running" '1 "status":"running"' \
	"$(wc -l <kill9.jsonl | tr -d ' ') $(grep -o '"status":"[a-z]*"' kill9.jsonl)"
expect_code endings-9.3 "the running record ingests" 0 "$LEDGER" ingest --db k.db kill9.jsonl
id=$(grep -o '"run_id":"[^"]*"' kill9.jsonl | cut -d'"' -f4)
start=$(grep -o '"started_at":"[^"]*"' kill9.jsonl | cut -d'"' -f4)
at() { date -u -d "@$(($(date -u -d "$start" +%s) + $1))" +%Y-%m-%dT%H:%M:%SZ; } # start + S seconds
status_at() { # SECONDS after start: the status query shows then
	RUNLEDGER_NOW=$(at "$1") "$LEDGER" --db k.db query --format tsv | awk -F '\t' -v id="$id" '$1 == id { print $6 }'
}
expect_eq endings-9.4 "running within budget 60 s + grace 30 s" running "$(status_at 90)"
expect_eq endings-9.5 "lost once they passed" lost "$(status_at 91)"
expect_eq endings-9.6 "--status lost selects it then" "$id" \
	"$(RUNLEDGER_NOW=$(at 200) "$LEDGER" --db k.db query --status lost --format tsv | tail -n +2 | cut -f1)"
expect_match endings-9.7 "show says lost beside the record's running" \
	"$(RUNLEDGER_NOW=$(at 200) "$LEDGER" --db k.db show "$id")" '^ledger\.status +lost$'
expect_eq endings-9.8 "lost is not stored: the row still says running" running \
	"$(sql k.db "SELECT status FROM runs WHERE run_id = '$id'")"

# The supersede: a run's running record, then its final one, replace in
# place (same row, nothing quarantined); the file again adds nothing.
head -n 1 runs.jsonl >start.jsonl
first=$(grep -o '"run_id":"[^"]*"' start.jsonl | cut -d'"' -f4)
grep -F "\"run_id\":\"$first\"" runs.jsonl | tail -n 1 >final.jsonl
expect_eq endings-10.1 "the first run's two records: running, then its final one" '"status":"running" "status":"nan"' \
	"$(grep -o '"status":"[a-z]*"' start.jsonl) $(grep -o '"status":"[a-z]*"' final.jsonl)"
"$LEDGER" ingest --db s.db start.jsonl >/dev/null
rowid=$(sql s.db "SELECT id FROM runs WHERE run_id = '$first'")
expect_code endings-10.2 "the final record ingests" 0 "$LEDGER" ingest --db s.db final.jsonl
expect_eq endings-10.3 "said as a running run ended" "final.jsonl: 0 new, 0 already present, 0 quarantined, 1 running run ended (runrec)" "$out"
expect_eq endings-10.4 "replaced in place: same row, status nan, one run" "$rowid|nan|1" \
	"$(sql s.db "SELECT id, status, (SELECT count(*) FROM runs) FROM runs WHERE run_id = '$first'")"
expect_code endings-10.5 "the running record again: already present, not a conflict" 0 "$LEDGER" ingest --db s.db start.jsonl
expect_eq endings-10.6 "counted as present" "start.jsonl: 0 new, 1 already present, 0 quarantined (runrec)" "$out"

# A final record is never replaced: another final record of the same run,
# or a running one that says something else, is a conflict.
sed 's/"status":"nan"/"status":"killed"/' final.jsonl >other-final.jsonl
expect_code endings-11.1 "a second final record: quarantined (exit 1)" 1 "$LEDGER" ingest --db s.db other-final.jsonl
expect_match endings-11.2 "the reason" "$err" \
	"^ledger: ingest: other-final.jsonl:1: run_id '$first' is already stored with different content \\(run #$rowid\\)$"
sed 's/"status":"running"/"status":"running","note":"other"/' start.jsonl >other-start.jsonl
expect_code endings-11.3 "a running record that does not match the final: quarantined" 1 "$LEDGER" ingest --db s.db other-start.jsonl
expect_match endings-11.3b "the reason" "$err" ": its record is final \\(nan\\), and this running record is not its start$"
expect_eq endings-11.4 "the stored run is unchanged" "nan|$rowid" "$(sql s.db "SELECT status, id FROM runs WHERE run_id = '$first'")"
# and a final record must keep what its running record said
"$LEDGER" ingest --db t.db start.jsonl >/dev/null
sed 's/"model.depth":1,/"model.depth":2,/' final.jsonl >changed-final.jsonl
expect_code endings-11.5 "a final record with another config than its running one: quarantined" 1 \
	"$LEDGER" ingest --db t.db changed-final.jsonl
expect_match endings-11.6 "the reason" "$err" ': this final record does not keep what its running record says'
expect_eq endings-11.7 "still running" running "$(sql t.db "SELECT status FROM runs WHERE run_id = '$first'")"
