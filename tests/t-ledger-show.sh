# t-ledger-show.sh — `ledger show RUN`: every field of the crash run of the
# query fixture in reading order, its tags and change, the failure log tail
# with its escape sequences made visible; run references (id, prefix, #N,
# ambiguous, unknown, a commit prefix, several runs of one commit); json =
# the stored record plus a "ledger" object; a peak memory above the card's.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
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

# 3: json: the stored record, plus "ledger" with tags and "changed"
"$LEDGER" show h100-lr --format json >show.json
expect_eq ledger-show-3.1 "json values" "h100-lr|0.06|9|H100|xl|runs.jsonl|9|2" \
	"$(sql ledger.db "SELECT json_extract(j,'\$.run_id') || '|' || json_extract(j,'\$.config.\"optim.matrix_lr\"')
		|| '|' || json_extract(j,'\$.config.\"model.depth\"') || '|' || json_extract(j,'\$.ledger.hw_class')
		|| '|' || json_extract(j,'\$.ledger.vram_tier') || '|' || json_extract(j,'\$.ledger.source_file')
		|| '|' || json_extract(j,'\$.ledger.source_line') || '|' || json_array_length(j,'\$.ledger.changed')
		FROM (SELECT readfile('show.json') AS j)")"
expect_eq ledger-show-3.2 "json changes" "optim.embedding_lr 0.6 0.8 exact|optim.matrix_lr 0.04 0.06 exact" \
	"$(sql ledger.db "SELECT group_concat(c, '|') FROM (SELECT json_extract(value,'\$.var') || ' ' ||
		json_extract(value,'\$.old') || ' ' || json_extract(value,'\$.new') || ' ' || json_extract(value,'\$.how') AS c
		FROM json_each(readfile('show.json'), '\$.ledger.changed'))")"
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

# 5: a peak memory above the card's is marked (the run of the fixture is
# within its card, so nothing is marked there)
expect_no_match ledger-show-5.1 "a run within its card's memory: no mark" "$("$LEDGER" show h100-d12)" "peak_vram_above_card"
printf 'commit\tval_bpb\tmemory_gb\tstatus\tdescription\n' >over.tsv
printf 'c0ffee1\t1.0\t90.0\tkeep\tbaseline\n' >>over.tsv
"$LEDGER" --db over.db ingest over.tsv --hardware "NVIDIA H100 80GB HBM3" --started-at 2026-03-16T04:00:00Z >/dev/null 2>&1
expect_code ledger-show-5.2 "show the run over its card" 0 "$LEDGER" --db over.db show '#1'
expect_eq ledger-show-5.3 "the mark names the peak and the card's memory" \
"ledger.peak_vram_above_card.peak_vram_mb  92160
ledger.peak_vram_above_card.card_mb       81920" "$(printf '%s\n' "$out" | grep '^ledger.peak_vram_above_card')"
"$LEDGER" --db over.db show '#1' --format json >over.json
expect_eq ledger-show-5.4 "json: ledger.peak_vram_above_card as numbers" "92160.0|81920" \
	"$(sql over.db "SELECT json_extract(readfile('over.json'), '\$.ledger.peak_vram_above_card.peak_vram_mb') || '|' ||
		json_extract(readfile('over.json'), '\$.ledger.peak_vram_above_card.card_mb')")"

# 6: a run by its commit, when no run id matches
printf 'commit\tval_bpb\tstatus\tdescription\n' >commits.tsv
printf 'a1f3c9e\t1.0\tkeep\tbaseline\n' >>commits.tsv
printf 'b2c4d6e\t0.99\tkeep\tdepth 9\n' >>commits.tsv
printf 'b2c4d6e\t0.98\tdiscard\tdepth 9 again\n' >>commits.tsv
printf 'b2c4aaa\t0.000000\tcrash\tdepth 10\n' >>commits.tsv
printf 'feedbee\t0.97\tdiscard\tdepth 11\n' >>commits.tsv
"$LEDGER" --db c.db ingest commits.tsv --started-at 2026-03-16T04:00:00Z >/dev/null 2>&1
expect_code ledger-show-6.1 "a unique commit prefix finds its run" 0 "$LEDGER" --db c.db show a1f3c9e
expect_match ledger-show-6.1o "the baseline's row" "$out" "^code\.commit +a1f3c9e$"
expect_code ledger-show-6.2 "four characters are enough" 0 "$LEDGER" --db c.db show a1f3
expect_match ledger-show-6.2o "the same run" "$out" "^description +baseline$"
expect_code ledger-show-6.3 "three are not: exit 2" 2 "$LEDGER" --db c.db show a1f
expect_match ledger-show-6.3m "unknown, with a hint naming commits" "$err" "commit prefix of 4 or more characters"
expect_code ledger-show-6.4 "a commit of two runs: exit 2" 2 "$LEDGER" --db c.db show b2c4d6e
expect_eq ledger-show-6.4m "the candidates listed, then a hint" \
"ledger: run 'b2c4d6e' is ambiguous: no run id starts with it, and 2 runs have a commit that does:
  #2  $(sql c.db "SELECT run_id FROM runs WHERE id = 2")  b2c4d6e  ok  depth 9
  #3  $(sql c.db "SELECT run_id FROM runs WHERE id = 3")  b2c4d6e  ok  depth 9 again
ledger: hint: name one by its run id or #N" "$err"
expect_code ledger-show-6.5 "a prefix of three commits: exit 2" 2 "$LEDGER" --db c.db show b2c4
expect_match ledger-show-6.5m "all three listed" "$err" "3 runs have a commit"
# a run id wins over a commit: give run 5 a run id that is run 4's commit prefix
rid4=$(sql c.db "SELECT run_id FROM runs WHERE id = 4")
printf '{"schema":"runrec/1","run_id":"b2c4aaa-mine","status":"ok","code":{"commit":"0000000"}}\n' >rid.jsonl
"$LEDGER" --db c.db ingest rid.jsonl >/dev/null 2>&1
expect_code ledger-show-6.6 "a run id starting with the text wins over a commit" 0 "$LEDGER" --db c.db show b2c4aaa
expect_match ledger-show-6.6o "the run id's run" "$out" "^run_id +b2c4aaa-mine$"
expect_code ledger-show-6.7 "#N still works" 0 "$LEDGER" --db c.db show '#4'
expect_match ledger-show-6.7o "run 4" "$out" "^run_id +$rid4$"

# 7: an inferred change shows the text it came from (table and json)
printf 'commit\tval_bpb\tmemory_gb\tstatus\tdescription\n' >sp.tsv
printf 'a1\t1.0\t10\tkeep\tbaseline\n' >>sp.tsv
printf 'a2\t0.9\t10\tkeep\texp3: softcap 30 (was 15) - better\n' >>sp.tsv
"$LEDGER" --db sp.db ingest sp.tsv >/dev/null 2>&1
id=$(sql sp.db "SELECT id FROM runs WHERE description LIKE 'exp3%'")
expect_eq ledger-show-7.1 "table: the change with its span" \
	'ledger.changed.model.softcap  15 -> 30 (inferred from "softcap 30 (was 15)")' \
	"$("$LEDGER" --db sp.db show "#$id" | grep '^ledger.changed')"
expect_eq ledger-show-7.2 "json: span" 'softcap 30 (was 15)' \
	"$("$LEDGER" --db sp.db --format json show "#$id" | jq -r '.ledger.changed[0].span')"

# 8: a curve is one line in the text formats (points, step range, last
# known train loss, evals), the arrays in full in json
need jq jq
"$LEDGER" --db cv.db ingest "$FIXTURES/report/runs.jsonl" >/dev/null 2>&1
expect_eq ledger-show-8.1 "table: the curve of a finished run in one line" \
	'curve                           61 points, steps 1-953, last train_loss 3.1016, 1 eval, last val_bpb 0.93 (--format json: every point)' \
	"$("$LEDGER" --db cv.db show b200-fa4 | grep '^curve')"
expect_eq ledger-show-8.2 "no curve array element as a field of its own" "" \
	"$("$LEDGER" --db cv.db show b200-fa4 | grep '^curve\.')"
expect_eq ledger-show-8.3 "tsv: a diverged run, its last finite loss and that step" \
	"$(printf 'curve\t15 points, steps 1-212, last train_loss 4.5931 (step 209) (--format json: every point)')" \
	"$("$LEDGER" --db cv.db --format tsv show b200-nan | grep '^curve')"
expect_eq ledger-show-8.4 "csv: quoted, one row (CRLF ends it)" \
	'curve,"15 points, steps 1-212, last train_loss 4.5931 (step 209) (--format json: every point)"' \
	"$("$LEDGER" --db cv.db --format csv show b200-nan | grep '^curve' | tr -d '\r')"
expect_eq ledger-show-8.5 "md: one row" \
	'| curve | 61 points, steps 1-953, last train\_loss 3.1016, 1 eval, last val\_bpb 0.93 (--format json: every point) |' \
	"$("$LEDGER" --db cv.db --format md show b200-fa4 | grep '^| curve ')"
expect_eq ledger-show-8.6 "json: the stored curve whole" \
	"$(jq -cS 'select(.run_id == "b200-fa4") | .curve' "$FIXTURES/report/runs.jsonl")" \
	"$("$LEDGER" --db cv.db --format json show b200-fa4 | jq -cS '.curve')"
