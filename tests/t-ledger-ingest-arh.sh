# t-ledger-ingest-arh.sh — `ledger ingest` of autoresearch@home results and
# format detection.
# Test plan: one pretty-printed result object and a JSONL of six (keep,
# discard, an upper-case CRASH with zeros, epoch completed_at, a string
# val_bpb, an unknown status); check the mapping to runrec/1 (agent,
# commit, decision, finished_at, VRAM -> gpu_mem_mb and tier, memory ->
# peak_vram_mb, extra numbers -> metrics), the two rejected lines, and that
# detection tells arh.json from runrec/1 and --as overrides it.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
F=$FIXTURES/ingest
cp "$F/arh-result.json" "$F/arh-results.jsonl" .
DB=l.db

expect_code ledger-ingest-arh-1.1 "arh input with two bad lines exits 1" 1 "$LEDGER" --db $DB ingest arh-result.json arh-results.jsonl
expect_eq ledger-ingest-arh-1.2 "summary" "arh-result.json: 1 new, 0 already present, 0 quarantined (arh.json)
arh-results.jsonl: 4 new, 0 already present, 2 quarantined (arh.json)" "$out"
expect_eq ledger-ingest-arh-1.3 "bad lines with file:line" "ledger: ingest: arh-results.jsonl:5: val_bpb: expected a number
ledger: ingest: arh-results.jsonl:6: status 'exploded' is not keep, discard or crash" "$err"
expect_eq ledger-ingest-arh-1.4 "columns from the result keys" \
"swift-otter-17|ok|keep|0.982113|RTX 4090|medium|24576.0|2026-03-18T11:42:07Z|4be91d0|1
swift-otter-17|ok|keep|0.990412|RTX 4090|medium|24576.0|2026-03-18T09:05:31Z|1a7c3e2|1
swift-otter-17|ok|discard|0.99387|RTX 4090|medium|24576.0|2026-03-18T09:11:02Z|88d02f4|2
swift-otter-17|crash|||RTX 4090|medium|24576.0|2026-03-18T09:13:40Z|c0ffee1|3
quiet-heron-3|ok|keep|1.02155|Quadro RTX 5000|small|16384.0|2026-03-18T09:20:00Z|5d1e9a0|4" \
	"$(sql $DB "SELECT agent, status, decision, val_bpb, hw_class, vram_tier, gpu_mem_mb, finished_at, code_commit, source_line FROM runs ORDER BY id")"
expect_eq ledger-ingest-arh-1.5 "metrics: memory as peak_vram_mb, extra numbers kept" \
	"mfu_percent=47.2 num_steps=1180 peak_vram_mb=22937.6 training_seconds=300.2 val_bpb=0.982113 " \
	"$(sql $DB "SELECT m.key || '=' || m.value || ' ' FROM runs, json_each(json_extract(record, '\$.metrics')) m WHERE runs.id = 1 ORDER BY m.key" | tr -d '\n')"
expect_eq ledger-ingest-arh-1.6 "a crash result has no metrics at all" "" \
	"$(sql $DB "SELECT json_extract(record, '\$.metrics') FROM runs WHERE status = 'crash'")"
expect_eq ledger-ingest-arh-1.7 "no parents and no changes for results without a chain" "0|0" \
	"$(sql $DB "SELECT (SELECT count(parent) FROM runs), (SELECT count(*) FROM changes)")"

# --- detection ---------------------------------------------------------
expect_code ledger-ingest-arh-2.1 "runrec forced on arh input: every line rejected" 1 "$LEDGER" --db f.db ingest --as runrec arh-results.jsonl
expect_eq ledger-ingest-arh-2.2 "forced format shows in the summary" "arh-results.jsonl: 0 new, 0 already present, 6 quarantined (runrec)" "$out"
expect_match ledger-ingest-arh-2.3 "the runrec reason names the schema field" "$err" "^ledger: ingest: arh-results.jsonl:1: field 'schema': is required and must be \"runrec/1\"; field 'status': "
cp "$FIXTURES/ingest/results.tsv" "$FIXTURES/ingest/run.log" "$FIXTURES/ingest/runs.jsonl" .
expect_code ledger-ingest-arh-2.4 "all four formats in one call" 1 "$LEDGER" --db all.db --format tsv ingest runs.jsonl results.tsv run.log arh-result.json
expect_eq ledger-ingest-arh-2.5 "each detected" "file	format	new	present	quarantined	ended	updated
runs.jsonl	runrec	6	1	4	0	0
results.tsv	results.tsv	124	0	0	0	0
run.log	run.log	1	0	0	0	0
arh-result.json	arh.json	1	0	0	0	0" "$out"

# --- keys that are not numbers: one warning per key and file -------------
printf '{"agent_id":"a","val_bpb":1.0,"status":"keep","host":"n1"}\n{"agent_id":"a","val_bpb":1.1,"status":"discard","host":"n2","note":"z"}\n' >extra.jsonl
expect_code ledger-ingest-arh-3.1 "string extras are not an error" 0 "$LEDGER" --db x.db ingest extra.jsonl
expect_eq ledger-ingest-arh-3.2 "one warning per key" "ledger: warning: ingest: extra.jsonl: key 'host' is not a number; it is not stored
ledger: warning: ingest: extra.jsonl: key 'note' is not a number; it is not stored" "$err"

# --- failure words in the description: crash or missing status only -------
printf '%s\n' '{"agent_id":"a","val_bpb":0.0,"status":"crash","description":"depth 12 (OOM)"}' \
	'{"agent_id":"a","val_bpb":0.0,"description":"HUNG at step 40"}' \
	'{"agent_id":"a","val_bpb":1.01,"status":"keep","description":"smaller batch after the OOM"}' \
	'{"agent_id":"a","val_bpb":0.0,"description":"no status, no word"}' >words.jsonl
expect_code ledger-ingest-arh-4.1 "failure words: exit 1 for the row with neither" 1 "$LEDGER" --db words.db ingest words.jsonl
expect_eq ledger-ingest-arh-4.2 "crash -> oom, no status + HUNG -> timeout, keep stays ok" "oom|
timeout|
ok|keep" "$(sql words.db "SELECT status, decision FROM runs ORDER BY id")"
expect_eq ledger-ingest-arh-4.3 "neither status nor word is refused as before" "ledger: ingest: words.jsonl:4: status is missing (keep, discard or crash)" "$err"
