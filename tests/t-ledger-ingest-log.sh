# t-ledger-ingest-log.sh — `ledger ingest` of autoresearch run.log files.
# Test plan: a finished log (a '\r' step stream, then the '---' summary),
# a CUDA OOM traceback in backward (status oom), a FAIL line after a NaN
# loss (crash), a log
# killed mid-run (steps only), a startup crash (import error); check status,
# metrics, config model.depth, failure phase/message/log tail, the line a
# record is attributed to, and that prose is refused (exit 2) unless forced
# with --as, where the file is quarantined.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
F=$FIXTURES/ingest
for f in run.log crash.log fail.log killed.log startup-crash.log; do cp "$F/$f" .; done
DB=l.db

expect_code ledger-ingest-log-1.1 "five logs exit 0" 0 "$LEDGER" --db $DB ingest run.log crash.log fail.log killed.log startup-crash.log \
	--hardware "NVIDIA H100 80GB HBM3"
expect_eq ledger-ingest-log-1.2 "one run per log" "run.log: 1 new, 0 already present, 0 quarantined (run.log)
crash.log: 1 new, 0 already present, 0 quarantined (run.log)
fail.log: 1 new, 0 already present, 0 quarantined (run.log)
killed.log: 1 new, 0 already present, 0 quarantined (run.log)
startup-crash.log: 1 new, 0 already present, 0 quarantined (run.log)" "$out"
expect_eq ledger-ingest-log-1.3 "status, val_bpb, steps, phase per log" \
"run.log|ok|0.9979|953||15
crash.log|oom||12|backward|15
fail.log|crash||41|forward|15
killed.log|killed||401|forward|1
startup-crash.log|crash|||startup|2" \
	"$(sql $DB "SELECT source_file, status, val_bpb, json_extract(record, '\$.metrics.num_steps'), json_extract(record, '\$.failure.phase'), source_line FROM runs ORDER BY id")"
expect_eq ledger-ingest-log-1.4 "the summary block becomes metrics and config" \
	'{"mfu_percent":39.8,"num_params_M":50.3,"num_steps":953,"peak_vram_mb":45060.2,"total_seconds":325.9,"total_tokens_M":499.6,"training_seconds":300.1,"val_bpb":0.9979}|{"model.depth":8}' \
	"$(sql $DB "SELECT json_object('mfu_percent', json_extract(record, '\$.metrics.mfu_percent'), 'num_params_M', json_extract(record, '\$.metrics.num_params_M'), 'num_steps', json_extract(record, '\$.metrics.num_steps'), 'peak_vram_mb', json_extract(record, '\$.metrics.peak_vram_mb'), 'total_seconds', json_extract(record, '\$.metrics.total_seconds'), 'total_tokens_M', json_extract(record, '\$.metrics.total_tokens_M'), 'training_seconds', json_extract(record, '\$.metrics.training_seconds'), 'val_bpb', json_extract(record, '\$.metrics.val_bpb')), json(json_extract(record, '\$.config')) FROM runs WHERE id = 1")"
expect_eq ledger-ingest-log-1.5 "the metrics object has nothing else" "8" \
	"$(sql $DB "SELECT count(*) FROM runs, json_each(json_extract(record, '\$.metrics')) WHERE runs.id = 1")"
expect_eq ledger-ingest-log-1.6 "OOM message is the exception line" \
	"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB." \
	"$(sql $DB "SELECT substr(json_extract(record, '\$.failure.message'), 1, 71) FROM runs WHERE id = 2")"
expect_eq ledger-ingest-log-1.7 "FAIL and killed messages" "FAIL
no summary: the log stops after step 401
ModuleNotFoundError: No module named 'rustbpe'" \
	"$(sql $DB "SELECT json_extract(record, '\$.failure.message') FROM runs WHERE id >= 3 ORDER BY id")"
expect_eq ledger-ingest-log-1.8 "log tail: the whole 15-line log, the step stream as a terminal shows it" "15|FAIL|1" \
	"$(sql $DB "SELECT length(t) - length(replace(t, char(10), '')) + 1, substr(t, length(t) - 3), instr(t, char(10) || 'step 00041 (4.3%) | loss: nan | lrm: 1.00 | dt: 311ms | tok/sec: 1,671,002 | mfu: 39.9% | epoch: 1 | remaining: 287s' || char(10)) > 0 FROM (SELECT json_extract(record, '\$.failure.log_tail') AS t FROM runs WHERE id = 3)")"
expect_eq ledger-ingest-log-1.8b "a long crash log keeps only its last 20 lines" "20" \
	"$(sql $DB "SELECT length(t) - length(replace(t, char(10), '')) + 1 FROM (SELECT json_extract(record, '\$.failure.log_tail') AS t FROM runs WHERE id = 2)")"
expect_eq ledger-ingest-log-1.9 "no carriage returns in any tail" "0" \
	"$(sql $DB "SELECT count(*) FROM runs WHERE instr(json_extract(record, '\$.failure.log_tail'), char(13)) > 0")"
expect_eq ledger-ingest-log-1.10 "hardware from --hardware, no decision" "H100|xl||run.log" \
	"$(sql $DB "SELECT DISTINCT hw_class, vram_tier, decision, source_format FROM runs")"

expect_code ledger-ingest-log-2.1 "same logs again: exit 0" 0 "$LEDGER" --db $DB ingest run.log crash.log --hardware "NVIDIA H100 80GB HBM3"
expect_eq ledger-ingest-log-2.2 "same logs again add nothing" "run.log: 0 new, 1 already present, 0 quarantined (run.log)
crash.log: 0 new, 1 already present, 0 quarantined (run.log)" "$out"

printf 'Vocab size: 8,192\nTime budget: 300s\n' >notes.txt
expect_code ledger-ingest-log-3.1 "a log with nothing to read is not detected: exit 2" 2 "$LEDGER" --db $DB ingest notes.txt
expect_code ledger-ingest-log-3.2 "forced with --as it is quarantined: exit 1" 1 "$LEDGER" --db $DB ingest --as run.log notes.txt
expect_eq ledger-ingest-log-3.3 "the reason says why" "ledger: ingest: notes.txt:1: no '---' summary, step lines, traceback or FAIL line: not a run log" "$err"
sed 's/^val_bpb: .*/val_bpb:          n\/a?/' run.log >badsum.log
expect_code ledger-ingest-log-3.4 "a summary value that is not a number: quarantined" 1 "$LEDGER" --db $DB ingest badsum.log
expect_eq ledger-ingest-log-3.5 "with its line" "ledger: ingest: badsum.log:16: val_bpb 'n/a?' is not a number" "$err"

# oom is read from the exception line only: the same traceback ending in
# another error is a crash, and a FAIL line that says so is an oom
sed 's/^torch\.OutOfMemoryError: .*/RuntimeError: shape mismatch./' crash.log >shape.log
printf 'step 00001 (0.1%%) | loss: 11.0\nFAIL: CUBLAS_STATUS_ALLOC_FAILED when calling cublasCreate(handle)\n' >cublas.log
expect_code ledger-ingest-log-4.1 "another exception, and an oom FAIL line" 0 "$LEDGER" --db oom.db ingest shape.log cublas.log
expect_eq ledger-ingest-log-4.2 "crash, then oom" "shape.log|crash|RuntimeError: shape mismatch.
cublas.log|oom|FAIL: CUBLAS_STATUS_ALLOC_FAILED when calling cublasCreate(handle)" \
	"$(sql oom.db "SELECT source_file, status, json_extract(record, '\$.failure.message') FROM runs ORDER BY id")"

# a log with bytes that are not UTF-8 keeps its message, repaired, and says so
printf 'step 00001 (0.1%%) | loss: 11.0\nTraceback (most recent call last):\n  File "train.py", line 9, in <module>\nRuntimeError: bad byte \377 here\n' >latin1.log
expect_code ledger-ingest-log-5.1 "a log that is not UTF-8: exit 0" 0 "$LEDGER" --db u.db ingest latin1.log
expect_eq ledger-ingest-log-5.2 "the message keeps its text" "crash|RuntimeError: bad byte $(printf '\357\277\275') here" \
	"$(sql u.db "SELECT status, json_extract(record, '\$.failure.message') FROM runs")"
expect_match ledger-ingest-log-5.3 "and the user is told" "$err" \
	"^ledger: warning: ingest: latin1.log: the log is not valid UTF-8; each invalid byte"

# a summary value of nan or inf is kept as null (json_real refuses them)
sed 's/^val_bpb: .*/val_bpb:          nan/; s/^mfu_percent: .*/mfu_percent:      inf/' run.log >nan.log
expect_code ledger-ingest-log-6.1 "a summary with nan and inf: exit 0" 0 "$LEDGER" --db nan.db ingest nan.log
expect_eq ledger-ingest-log-6.2 "both keys kept as null, no val_bpb column" "null|null|" \
	"$(sql nan.db "SELECT json_type(record, '\$.metrics.val_bpb'), json_type(record, '\$.metrics.mfu_percent'), val_bpb FROM runs")"
sed 's/^total_tokens_M:/tokens\xe9M:/' run.log >key.log
"$LEDGER" --db key.db ingest key.log >/dev/null 2>&1
expect_eq ledger-ingest-log-6.3 "a summary key that is not UTF-8 is repaired, not dropped" "499.6" \
	"$(sql key.db "SELECT json_extract(record, '\$.metrics.\"tokens' || char(65533) || 'M\"') FROM runs")"

# The '\r' step stream becomes the curve (docs/run-record.md): 954 step
# lines (0..953) down-sample to every 2nd and the last, 478 points; loss,
# lrm and tok/sec as printed (thousands separators dropped), tokens
# unknown; the summary's val_bpb is the eval point after the last step.
expect_eq ledger-ingest-log-7.1 "run.log: 478 points, steps 0, 2, .., 952, 953" "478|0|2|952|953" \
	"$(sql $DB "SELECT json_array_length(record, '\$.curve.step'), json_extract(record, '\$.curve.step[0]'),
		json_extract(record, '\$.curve.step[1]'), json_extract(record, '\$.curve.step[476]'),
		json_extract(record, '\$.curve.step[477]') FROM runs WHERE id = 1")"
expect_eq ledger-ingest-log-7.2 "loss, lrm, tok/sec of step 0 as printed; tokens null" "12.189519|1.0|1685250.0|478" \
	"$(sql $DB "SELECT json_extract(record, '\$.curve.train_loss[0]'), json_extract(record, '\$.curve.lr_mult[0]'),
		json_extract(record, '\$.curve.tok_per_s[0]'),
		(SELECT count(*) FROM json_each(record, '\$.curve.tokens') WHERE type = 'null') FROM runs WHERE id = 1")"
expect_eq ledger-ingest-log-7.3 "the eval point: val_bpb at the last step" '{"step":[953],"val_bpb":[0.9979]}' \
	"$(sql $DB "SELECT json_object('step', json(json_extract(record, '\$.curve.eval.step')), 'val_bpb',
		json_array(round(json_extract(record, '\$.curve.eval.val_bpb[0]'), 6))) FROM runs WHERE id = 1")"
expect_eq ledger-ingest-log-7.4 "a failed log keeps its steps; loss nan is null; no step lines, no curve" \
	"crash.log|13||fail.log|42|null|killed.log|402||startup-crash.log|||" \
	"$(sql $DB "SELECT source_file, json_array_length(record, '\$.curve.step'),
		CASE WHEN source_file = 'fail.log' THEN json_type(record, '\$.curve.train_loss[41]') END
		FROM runs WHERE id > 1 ORDER BY id" | tr '\n' '|')"
