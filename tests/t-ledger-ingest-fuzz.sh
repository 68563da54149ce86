# t-ledger-ingest-fuzz.sh — inputs the fuzzers (fuzz/, docs/fuzzing.md)
# found or were seeded with to show a bug, fed through the real
# `ledger ingest`; each kept in tests/fixtures/fuzz/ with the behaviour the
# fix chose. Test plan per input: exit status, the warning with file:line,
# and what was stored.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
F=$FIXTURES/fuzz
DB=l.db

# A run.log step number of 18446744073709551617 (2^64 + 1) overflowed a
# signed long in ledger/ingest_runlog.c and stored num_steps 1 (UBSan:
# signed integer overflow). Now the step line is ignored with a warning;
# the steps before it and the FAIL line after it are kept.
cp "$F/runlog-step-overflow.log" overflow.log
expect_code ledger-ingest-fuzz-1.1 "a log with an overflowing step number is ingested: exit 0" 0 \
	"$LEDGER" --db $DB ingest overflow.log
expect_eq ledger-ingest-fuzz-1.2 "the warning names file:line and the number" \
	"ledger: warning: ingest: overflow.log:2: step number 18446744073709551617 is too large (the most is 9223372036854775807); that step line is ignored" "$err"
expect_eq ledger-ingest-fuzz-1.3 "num_steps is the last step that fits, the FAIL line is read" "crash|952|FAIL" \
	"$(sql $DB "SELECT status, json_extract(record, '\$.metrics.num_steps'), json_extract(record, '\$.failure.message') FROM runs WHERE source_file = 'overflow.log'")"
# only the overflowing step: no step is known, so nothing says "run log"
printf 'step 18446744073709551617 (100.0%%) | loss: 3.2\n' >only.log
expect_code ledger-ingest-fuzz-1.4 "a log whose only step overflows is quarantined: exit 1" 1 \
	"$LEDGER" --db $DB ingest --as run.log only.log
expect_match ledger-ingest-fuzz-1.5 "with the warning and the reason" "$err" \
	"^ledger: ingest: only.log:1: no '---' summary, step lines, traceback or FAIL line: not a run log$"
# in the summary, a number past a 64-bit integer is stored as a real of its
# size, as every summary number that is not an integer is
cp "$F/runlog-summary-steps-overflow.log" summary.log
expect_code ledger-ingest-fuzz-1.6 "a summary num_steps past 2^63: exit 0" 0 "$LEDGER" --db $DB ingest summary.log
expect_eq ledger-ingest-fuzz-1.7 "stored as a real of its size, not wrapped" "real|1.84467440737096e+19" \
	"$(sql $DB "SELECT json_type(record, '\$.metrics.num_steps'), json_extract(record, '\$.metrics.num_steps') FROM runs WHERE source_file = 'summary.log'")"

# fuzz_arh: an arh.json completed_at of 5.5e77 epoch seconds was cast to
# time_t in format_iso_utc (common/util.c; UBSan: outside the range of
# long) and gmtime_r's failure left the time unset. Now a completed_at
# outside the years 1-9999 quarantines that result with a reason; the
# other results of the file go in.
cp "$F/arh-completed-at-huge.json" big.json
expect_code ledger-ingest-fuzz-2.1 "the crashing input is quarantined: exit 1" 1 "$LEDGER" --db $DB ingest --as arh.json big.json
expect_eq ledger-ingest-fuzz-2.2 "with a reason naming file:line and the value" \
	"ledger: ingest: big.json:1: completed_at: 5.55556e+77 is not a time in epoch seconds (years 1 to 9999)" "$err"
printf '%s\n' '{"agent_id":"a","val_bpb":0.99,"status":"keep","completed_at":1773619200}' \
	'{"agent_id":"b","val_bpb":0.98,"status":"keep","completed_at":-1e300}' >mix.jsonl
expect_code ledger-ingest-fuzz-2.3 "a JSONL with one such result: exit 1" 1 "$LEDGER" --db $DB ingest mix.jsonl
expect_eq ledger-ingest-fuzz-2.4 "the good result is stored with its time, the bad one quarantined" \
	"mix.jsonl: 1 new, 0 already present, 1 quarantined (arh.json)|2026-03-16T00:00:00Z" \
	"$out|$(sql $DB "SELECT json_extract(record, '\$.finished_at') FROM runs WHERE source_file = 'mix.jsonl'")"
# the same formatter behind results.tsv's --started-at/--every times
head -n 3 "$FIXTURES/ingest/results.tsv" >r.tsv
expect_code ledger-ingest-fuzz-2.5 "--every 1e300 puts the second row past year 9999: exit 1" 1 \
	"$LEDGER" --db $DB ingest --started-at 2026-03-16T00:00:00Z --every 1e300 r.tsv
expect_eq ledger-ingest-fuzz-2.6 "the first row stored at --started-at, the second quarantined" \
	"r.tsv: 1 new, 0 already present, 1 quarantined (results.tsv)|2026-03-16T00:00:00Z" \
	"$out|$(sql $DB "SELECT json_extract(record, '\$.started_at') FROM runs WHERE source_file = 'r.tsv'")"
