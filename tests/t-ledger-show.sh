# t-ledger-show.sh — `ledger show RUN`: every field of the crash run of the
# query fixture in reading order, its tags and change, the failure log tail
# with its escape sequences made visible; run references (id, prefix, #N,
# ambiguous, unknown); json = the stored record plus a "ledger" object.
. "$ROOT/tests/lib.sh"
cp "$FIXTURES/query/runs.jsonl" . || exit 1
"$LEDGER" ingest runs.jsonl >/dev/null 2>&1 || { not_ok ledger-show-0 "fixture ingests"; exit 1; }

# the ingest time varies, and the two hashes belong to ingest: masked here
mask() { sed 's/^\(ledger\.\(ingested_at\|repeat_key\|content_hash\) *\).*/\1X/'; }

expect_code ledger-show-1.1 "show exits 0" 0 "$LEDGER" show h100-d12
expect_eq ledger-show-1.2 "show table output" "$(cat <<'EOT'
schema                          runrec/1
run_id                          h100-d12
parent                          h100-d9
campaign                        depth-sweep
agent                           alice
description                     depth 9 -> 12
status                          crash
decision                        discard
started_at                      2026-03-16T05:00:00Z
finished_at                     2026-03-16T05:01:10Z
hardware.compute_capability     9.0
hardware.cuda                   12.4
hardware.driver                 550.54.15
hardware.gpu_count              1
hardware.gpu_mem_mb             81559
hardware.gpu_name               NVIDIA H100 80GB HBM3
hardware.host                   h100-a
code.commit                     3f2a9c1
code.dirty                      false
data.name                       fineweb-edu-10B
data.sha256                     5f1c2e9a0b7d4c3e8f6a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a
budget.seconds                  300
config.impl.attention           flash
config.model.depth              12
config.model.dim                512
config.optim.embedding_lr       0.6
config.optim.matrix_lr          0.04
config.train.device_batch_size  64
metrics.peak_vram_mb            80100
metrics.training_seconds        61
failure.message                 CUDA out of memory
failure.phase                   forward
ledger.id                       7
ledger.hw_class                 H100
ledger.vram_tier                xl
ledger.val_bpb                  null
ledger.repeat_key               X
ledger.content_hash             X
ledger.source_format            runrec
ledger.source_file              runs.jsonl
ledger.source_line              7
ledger.ingested_at              X
ledger.changed.model.depth      9 -> 12 (exact)

failure.log_tail:
step 12
\x1b[31mRuntimeError: CUDA out of memory\x1b[0m
EOT
)" "$(printf '%s\n' "$out" | mask)"
esc=$(printf '\033')
expect_no_match ledger-show-1.3 "no raw escape byte reaches the terminal" "$out" "$esc"

# 2: the same run by unique prefix and by #N; errors for the rest
expect_code ledger-show-2.1 "unique prefix" 0 "$LEDGER" show h100-d1
expect_match ledger-show-2.1o "prefix resolves to h100-d12" "$out" "^run_id +h100-d12$"
expect_code ledger-show-2.2 "#N" 0 "$LEDGER" show '#7'
expect_match ledger-show-2.2o "#7 is h100-d12" "$out" "^run_id +h100-d12$"
expect_code ledger-show-2.3 "ambiguous prefix: exit 2" 2 "$LEDGER" show h100-
expect_match ledger-show-2.3m "message" "$err" "^ledger: run 'h100-' is ambiguous"
expect_code ledger-show-2.4 "unknown run: exit 2" 2 "$LEDGER" show zzz
expect_match ledger-show-2.4m "message" "$err" "^ledger: no run 'zzz' in the ledger"
expect_code ledger-show-2.5 "no run given: exit 2" 2 "$LEDGER" show
expect_match ledger-show-2.5m "message" "$err" "^ledger: show: which run\\?"
expect_code ledger-show-2.6 "two runs given: exit 2" 2 "$LEDGER" show h100-d9 h100-d12

# 3: json: the stored record, plus "ledger" with tags and changes
"$LEDGER" show h100-lr --format json >show.json
expect_eq ledger-show-3.1 "json values" "h100-lr|0.06|9|H100|xl|runs.jsonl|9|2" \
	"$(sql ledger.db "SELECT json_extract(j,'\$.run_id') || '|' || json_extract(j,'\$.config.\"optim.matrix_lr\"')
		|| '|' || json_extract(j,'\$.config.\"model.depth\"') || '|' || json_extract(j,'\$.ledger.hw_class')
		|| '|' || json_extract(j,'\$.ledger.vram_tier') || '|' || json_extract(j,'\$.ledger.source_file')
		|| '|' || json_extract(j,'\$.ledger.source_line') || '|' || json_array_length(j,'\$.ledger.changes')
		FROM (SELECT readfile('show.json') AS j)")"
expect_eq ledger-show-3.2 "json changes" "optim.embedding_lr 0.6 0.8 exact|optim.matrix_lr 0.04 0.06 exact" \
	"$(sql ledger.db "SELECT group_concat(c, '|') FROM (SELECT json_extract(value,'\$.var') || ' ' ||
		json_extract(value,'\$.old') || ' ' || json_extract(value,'\$.new') || ' ' || json_extract(value,'\$.how') AS c
		FROM json_each(readfile('show.json'), '\$.ledger.changes'))")"
# every key of the stored record is in the output with the same value
expect_eq ledger-show-3.3 "json holds the stored record" "0" \
	"$(sql ledger.db "SELECT count(*) FROM runs r, json_tree(r.record) t WHERE r.run_id = 'h100-lr'
		AND t.atom IS NOT NULL AND json_extract(readfile('show.json'), t.fullkey) IS NOT t.atom")"
expect_eq ledger-show-3.4 "content hash matches the runs row" \
	"$(sql ledger.db "SELECT content_hash FROM runs WHERE run_id = 'h100-lr'")" \
	"$(sql ledger.db "SELECT json_extract(readfile('show.json'), '\$.ledger.content_hash')")"

# 4: tsv: two columns; the log tail's newlines and escape bytes become spaces
expect_eq ledger-show-4.1 "tsv field/value" "field	value|failure.log_tail	step 12  [31mRuntimeError: CUDA out of memory [0m " \
	"$("$LEDGER" show h100-d12 --format tsv | sed -n '1p;/^failure.log_tail/p' | paste -sd'|')"

# 5: an inferred change shows the text it came from (table and json)
printf 'commit\tval_bpb\tmemory_gb\tstatus\tdescription\n' >sp.tsv
printf 'a1\t1.0\t10\tkeep\tbaseline\n' >>sp.tsv
printf 'a2\t0.9\t10\tkeep\texp3: softcap 30 (was 15) - better\n' >>sp.tsv
"$LEDGER" --db sp.db ingest sp.tsv >/dev/null 2>&1
id=$(sql sp.db "SELECT id FROM runs WHERE description LIKE 'exp3%'")
expect_eq ledger-show-5.1 "table: the change with its span" \
	'ledger.changed.model.softcap  15 -> 30 (inferred from "softcap 30 (was 15)")' \
	"$("$LEDGER" --db sp.db show "#$id" | grep '^ledger.changed')"
expect_eq ledger-show-5.2 "json: span" 'softcap 30 (was 15)' \
	"$("$LEDGER" --db sp.db --format json show "#$id" | jq -r '.ledger.changes[0].span')"
