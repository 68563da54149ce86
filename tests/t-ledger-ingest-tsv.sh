# t-ledger-ingest-tsv.sh — `ledger ingest` of autoresearch results.tsv.
# Test plan: the 124-row canonical fixture (keeps, discards, crashes with
# 0.000000) and a wide variant (columns in another order, extra metric
# columns, mixed-case status); check counts, the baseline, the parent chain
# (last kept row), that crash rows have no val_bpb, inferred changes, the
# repeat group of four "depth 8 to 9" rows, extra metrics with their
# runrec names, --hardware/--started-at/--every, idempotence, and bad rows
# reported with file:line and quarantined while the rest goes in.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
F=$FIXTURES/ingest
cp "$F/results.tsv" "$F/results-wide.tsv" .
DB=l.db

expect_code ledger-ingest-tsv-1.1 "clean results.tsv exits 0" 0 "$LEDGER" --db $DB ingest results.tsv \
	--hardware "NVIDIA H100 80GB HBM3" --agent forge --started-at 2026-03-16T04:00:00Z
expect_eq ledger-ingest-tsv-1.2 "summary" "results.tsv: 124 new, 0 already present, 0 quarantined (results.tsv)" "$out"
expect_eq ledger-ingest-tsv-1.3 "statuses and decisions; crashes described '(OOM)' are oom" "crash||6
ok|baseline|1
ok|discard|56
ok|keep|49
oom||12" "$(sql $DB "SELECT status, decision, count(*) FROM runs GROUP BY 1, 2 ORDER BY 1, 2")"
expect_eq ledger-ingest-tsv-1.4 "failed rows have no val_bpb, ok rows all do" "18|0" \
	"$(sql $DB "SELECT sum(val_bpb IS NULL AND status <> 'ok'), sum(val_bpb IS NULL AND status = 'ok') FROM runs")"
expect_eq ledger-ingest-tsv-1.5 "crash row record has no val_bpb metric" "||crash" \
	"$(sql $DB "SELECT json_extract(record, '\$.metrics.val_bpb'), json_extract(record, '\$.metrics.peak_vram_mb'), status FROM runs WHERE id = 8")"
expect_eq ledger-ingest-tsv-1.6 "the first row is the baseline, without parent" "baseline||0.9979|a1f3c9e" \
	"$(sql $DB "SELECT description, parent, val_bpb, code_commit FROM runs WHERE id = 1")"
expect_eq ledger-ingest-tsv-1.7 "each row's parent is the last kept row before it" "1|1|1|1|1|6|7|7|9" \
	"$(sql $DB "SELECT group_concat(p.id, '|') FROM runs r JOIN runs p ON p.run_id = r.parent WHERE r.id BETWEEN 2 AND 10 ORDER BY r.id")"
expect_eq ledger-ingest-tsv-1.8 "no row's parent is a discard or a crash" "0" \
	"$(sql $DB "SELECT count(*) FROM runs r JOIN runs p ON p.run_id = r.parent WHERE p.decision NOT IN ('keep', 'baseline')")"
expect_eq ledger-ingest-tsv-1.9 "tags from the options" "H100|xl|forge|124" \
	"$(sql $DB "SELECT hw_class, vram_tier, agent, count(*) FROM runs GROUP BY 1, 2, 3")"
expect_eq ledger-ingest-tsv-1.10 "--started-at spaces rows by 300 s" \
	"2026-03-16T04:00:00Z|2026-03-16T04:05:00Z|2026-03-16T14:15:00Z" \
	"$(sql $DB "SELECT (SELECT started_at FROM runs WHERE id = 1), (SELECT started_at FROM runs WHERE id = 2), (SELECT started_at FROM runs WHERE id = 124)")"
expect_eq ledger-ingest-tsv-1.11 "memory_gb becomes peak_vram_mb" "45056.0" \
	"$(sql $DB "SELECT json_extract(record, '\$.metrics.peak_vram_mb') FROM runs WHERE id = 1")"

expect_eq ledger-ingest-tsv-2.1 "inferred changes from descriptions" \
"2|model.depth|8|9|inferred
6|optim.matrix_lr|0.04|0.05|inferred
7|optim.embedding_lr|0.6|0.8|inferred
9|sched.warmdown_ratio|0.5|0.6|inferred" \
	"$(sql $DB "SELECT run, var, old, new, how FROM changes WHERE run IN (1, 2, 6, 7, 9) ORDER BY run, var")"
expect_eq ledger-ingest-tsv-2.2 "four tries of depth 8 to 9 from the baseline are one repeat group" "2,3,4,5" \
	"$(sql $DB "SELECT group_concat(id) FROM (SELECT id, repeat_key FROM runs WHERE repeat_key IN (SELECT repeat_key FROM runs GROUP BY 1 HAVING count(*) > 1 AND min(id) < 10) ORDER BY id)")"
expect_eq ledger-ingest-tsv-2.3 "two changes in one description" \
"impl.recompute||true
train.device_batch_size|32|64" \
	"$(sql $DB "SELECT var, old, new FROM changes WHERE run = (SELECT min(id) FROM runs WHERE description LIKE 'grad checkpointing%') ORDER BY var")"

expect_code ledger-ingest-tsv-3.1 "re-ingest exits 0" 0 "$LEDGER" --db $DB ingest results.tsv \
	--hardware "NVIDIA H100 80GB HBM3" --agent forge --started-at 2026-03-16T04:00:00Z
expect_eq ledger-ingest-tsv-3.2 "re-ingest adds nothing" "results.tsv: 0 new, 124 already present, 0 quarantined (results.tsv)" "$out"

# --- wide variant ------------------------------------------------------
expect_code ledger-ingest-tsv-4.1 "wide variant exits 0" 0 "$LEDGER" --db w.db ingest results-wide.tsv
expect_eq ledger-ingest-tsv-4.2 "wide summary" "results-wide.tsv: 12 new, 0 already present, 0 quarantined (results.tsv)" "$out"
expect_eq ledger-ingest-tsv-4.3 "mixed-case statuses (the CRASH row says OOM)" "ok|baseline|1
ok|discard|4
ok|keep|6
oom||1" "$(sql w.db "SELECT status, decision, count(*) FROM runs GROUP BY 1, 2 ORDER BY 1, 2")"
expect_eq ledger-ingest-tsv-4.4 "extra columns become metrics under runrec names" \
	'mfu_percent=42.99 num_params_M=86.1 num_steps=699 peak_vram_mb=20787.2 tokens_per_second=206155 val_bpb=1.0412 ' \
	"$(sql w.db "SELECT m.key || '=' || m.value || ' ' FROM runs, json_each(json_extract(record, '\$.metrics')) m WHERE runs.id = 1 ORDER BY m.key" | tr -d '\n')"
expect_eq ledger-ingest-tsv-4.5 "a crash row keeps no zero metrics" "{}" \
	"$(sql w.db "SELECT coalesce(json(json_extract(record, '\$.metrics')), '{}') FROM runs WHERE status <> 'ok'")"
expect_eq ledger-ingest-tsv-4.6 "no hardware given: class unknown, no tier" "unknown|" \
	"$(sql w.db "SELECT DISTINCT hw_class, vram_tier FROM runs")"
expect_eq ledger-ingest-tsv-4.7 "source format" "results.tsv|results-wide.tsv|13" \
	"$(sql w.db "SELECT DISTINCT source_format, source_file, max(source_line) FROM runs")"

# --- bad rows ----------------------------------------------------------
printf 'commit\tval_bpb\tmemory_gb\tstatus\tdescription\n' >bad.tsv
printf 'aaaaaaa\t0.997900\t44.0\tkeep\tbaseline\n' >>bad.tsv
printf 'bbbbbbb\tabc\t44.0\tdiscard\tdepth 8 to 9\n' >>bad.tsv
printf 'ccccccc\t0.990000\t44.0\tmaybe\tdepth 8 to 10\n' >>bad.tsv
printf 'ddddddd\t0.990000\t44.0\n' >>bad.tsv
printf '\n' >>bad.tsv
printf 'eeeeeee\t0.995000\t44.1\tKeep\tembedding LR 0.6 to 0.8\n' >>bad.tsv
expect_code ledger-ingest-tsv-5.1 "bad rows: partial, exit 1" 1 "$LEDGER" --db b.db ingest bad.tsv --started-at 2026-03-16T04:00:00Z
expect_eq ledger-ingest-tsv-5.2 "bad rows summary" "bad.tsv: 2 new, 0 already present, 3 quarantined (results.tsv)" "$out"
expect_eq ledger-ingest-tsv-5.3 "bad rows reported with file:line" \
"ledger: ingest: bad.tsv:3: val_bpb 'abc' is not a number
ledger: ingest: bad.tsv:4: status 'maybe' is not keep, discard or crash
ledger: ingest: bad.tsv:5: 3 fields, the header has 5" "$err"
expect_eq ledger-ingest-tsv-5.4 "quarantined rows keep their text" "3|bbbbbbb	abc	44.0	discard	depth 8 to 9" \
	"$(sql b.db "SELECT line, content FROM quarantine ORDER BY id LIMIT 1")"
expect_eq ledger-ingest-tsv-5.5 "the good row after bad ones still has the baseline as parent" "7|aaaaaaa" \
	"$(sql b.db "SELECT r.source_line, p.code_commit FROM runs r JOIN runs p ON p.run_id = r.parent")"
printf 'commit\tval_bpb\tdescription\naaaaaaa\t0.99\tx\n' >nostatus.tsv
expect_code ledger-ingest-tsv-5.6 "a header without status is unusable: exit 2" 2 "$LEDGER" --db b.db ingest nostatus.tsv
expect_eq ledger-ingest-tsv-5.7 "header message" "ledger: ingest: nostatus.tsv:1: the header has no status column
ledger: hint: results.tsv starts with a header like 'commit<TAB>val_bpb<TAB>memory_gb<TAB>status<TAB>description'" "$err"

# --- --every -----------------------------------------------------------
head -n 4 results.tsv >three.tsv
expect_code ledger-ingest-tsv-6.1 "--every spaces rows" 0 "$LEDGER" --db e.db ingest three.tsv --started-at 2026-03-16T04:00:00Z --every 90
expect_eq ledger-ingest-tsv-6.2 "rows 90 s apart, t_finished from started_at" \
"2026-03-16T04:00:00Z|1773633600.0
2026-03-16T04:01:30Z|1773633690.0
2026-03-16T04:03:00Z|1773633780.0" "$(sql e.db "SELECT started_at, t_finished FROM runs ORDER BY id")"
expect_code ledger-ingest-tsv-6.3 "a negative --every is a usage error" 2 "$LEDGER" --db e.db ingest three.tsv --started-at 2026-03-16T04:00:00Z --every -5

# --- identical rows: each one a run --------------------------------------
# The same crash twice after the same kept row must be two runs, not one run
# and a duplicate; after the next keep the same row is a first again.
T=$(printf '\t')
{
	echo "commit${T}val_bpb${T}memory_gb${T}status${T}description"
	echo "b000001${T}1.000000${T}40.0${T}keep${T}baseline"
	echo "c000002${T}0.000000${T}0.0${T}crash${T}fp8 matmuls"
	echo "c000002${T}0.000000${T}0.0${T}crash${T}fp8 matmuls"
	echo "d000003${T}1.010000${T}40.0${T}discard${T}depth 8 to 9"
	echo "c000002${T}0.000000${T}0.0${T}crash${T}fp8 matmuls"
	echo "k000004${T}0.990000${T}40.0${T}keep${T}warmdown 0.5 to 0.6"
	echo "c000002${T}0.000000${T}0.0${T}crash${T}fp8 matmuls"
} >same.tsv
expect_code ledger-ingest-tsv-7.1 "identical rows: exit 0" 0 "$LEDGER" --db s.db ingest same.tsv
expect_eq ledger-ingest-tsv-7.2 "seven rows, seven runs" "same.tsv: 7 new, 0 already present, 0 quarantined (results.tsv)" "$out"
expect_eq ledger-ingest-tsv-7.3 "occurrence counts repeats after the same kept row only" \
"2|b000001|
3|c000002|
4|c000002|2
5|d000003|
6|c000002|3
7|k000004|
8|c000002|" "$(sql s.db "SELECT source_line, code_commit, json_extract(record, '\$.occurrence') FROM runs ORDER BY id")"
expect_code ledger-ingest-tsv-7.4 "again: exit 0" 0 "$LEDGER" --db s.db ingest same.tsv
expect_eq ledger-ingest-tsv-7.5 "again: nothing new" "same.tsv: 0 new, 7 already present, 0 quarantined (results.tsv)" "$out"
echo "c000002${T}0.000000${T}0.0${T}crash${T}fp8 matmuls" >>same.tsv
"$LEDGER" --db s.db ingest same.tsv >/dev/null 2>&1
expect_eq ledger-ingest-tsv-7.6 "an appended repeat is one new run, the second since the keep" "9|2" \
	"$(sql s.db "SELECT source_line, json_extract(record, '\$.occurrence') FROM runs WHERE id = (SELECT max(id) FROM runs)")"
expect_eq ledger-ingest-tsv-7.7 "the repeats are one repeat group" "3" \
	"$(sql s.db "SELECT count(*) FROM runs WHERE code_commit = 'c000002' AND parent = (SELECT run_id FROM runs WHERE code_commit = 'b000001') GROUP BY repeat_key")"

# --- text that is not UTF-8 is kept, repaired, and said ------------------
# (jansson refuses invalid UTF-8; the field used to vanish without a word)
printf 'commit\tval_bpb\tstatus\tm\351fu\tdescription\naaaaaaa\t1.0\tkeep\t41.5\tLatin-1 caf\351 \377\nbbbbbbb\t0.99\tkeep\t41.0\tna\357ve\n' >latin1.tsv
expect_code ledger-ingest-tsv-8.1 "a Latin-1 results.tsv: exit 0" 0 "$LEDGER" --db u.db ingest latin1.tsv --started-at 2026-03-16T04:00:00Z
expect_eq ledger-ingest-tsv-8.2 "descriptions kept, each bad byte as U+FFFD" \
"Latin-1 caf$(printf '\357\277\275') $(printf '\357\277\275')
na$(printf '\357\277\275')ve" "$(sql u.db "SELECT description FROM runs ORDER BY id")"
expect_eq ledger-ingest-tsv-8.3 "the odd column name still names the metric" "41.5" \
	"$(sql u.db "SELECT json_extract(record, '\$.metrics.\"m' || char(65533) || 'fu\"') FROM runs WHERE id = 1")"
expect_eq ledger-ingest-tsv-8.4 "warned once for the header, once for the column, with file:line" \
"ledger: warning: ingest: latin1.tsv:1: the name of column 4 is not valid UTF-8; it is read as 'm$(printf '\357\277\275')fu'
ledger: warning: ingest: latin1.tsv:2: column 'description' is not valid UTF-8; each invalid byte is stored as U+FFFD (said once per column)" "$err"

# --- values that are not finite are kept as null, not dropped ------------
printf 'commit\tval_bpb\tstatus\tmfu\naaaaaaa\tinf\tkeep\t40.0\nbbbbbbb\t0.99\tkeep\t-inf\n' >inf.tsv
expect_code ledger-ingest-tsv-9.1 "inf values: exit 0" 0 "$LEDGER" --db inf.db ingest inf.tsv
expect_eq ledger-ingest-tsv-9.2 "inf is stored as null: no measurement, but the key stays" \
"|null|real
0.99|real|null" "$(sql inf.db "SELECT val_bpb, json_type(record, '\$.metrics.val_bpb'), json_type(record, '\$.metrics.mfu_percent') FROM runs ORDER BY id")"

# --- the same file again with other options: new runs, and a warning -----
head -n 11 results.tsv >ten.tsv
T0=2026-03-16T04:00:00Z
"$LEDGER" --db opt.db ingest ten.tsv --hardware "NVIDIA H100 80GB HBM3" --started-at $T0 >/dev/null 2>&1
expect_code ledger-ingest-tsv-10.1 "same options again" 0 "$LEDGER" --db opt.db ingest ten.tsv --hardware "NVIDIA H100 80GB HBM3" --started-at $T0
expect_eq ledger-ingest-tsv-10.2 "adds nothing and says nothing" "" "$err"
expect_code ledger-ingest-tsv-10.3 "other --hardware: still exit 0" 0 "$LEDGER" --db opt.db ingest ten.tsv --hardware "NVIDIA H200" --started-at $T0
expect_eq ledger-ingest-tsv-10.4 "ten new runs, and the warning says why" "ten.tsv: 10 new, 0 already present, 0 quarantined (results.tsv)
ledger: warning: ingest: ten.tsv: 10 of the 10 new runs match runs ingested before from a file of this name but for their agent, campaign or hardware
ledger: hint: --agent, --campaign and --hardware are part of a row's content; given as on the first ingest, the same file adds nothing" "$out
$err"
cp ten.tsv other-name.tsv
"$LEDGER" --db opt.db ingest other-name.tsv --agent someone --started-at $T0 >/dev/null 2>stderr.txt
expect_eq ledger-ingest-tsv-10.5 "another file name is another file: no warning" "" "$(cat stderr.txt)"

# --- rows without times: said once per file, with the way to give times ---
printf 'commit\tval_bpb\tstatus\tdescription\naaaaaaa\t1.0\tkeep\tbaseline\nbbbbbbb\t0.99\tkeep\tdepth 9\nccccccc\t0.98\tdiscard\tdepth 10\n' >notime.tsv
expect_code ledger-ingest-tsv-11.1 "no time column, no --started-at: still exit 0" 0 "$LEDGER" --db nt.db ingest notime.tsv
expect_eq ledger-ingest-tsv-11.2 "one warning naming the file and the count, and a hint" \
"ledger: warning: ingest: notime.tsv: 3 new runs have no time (no started_at or finished_at column, and no --started-at): no day, --since or --until will find them, and the frontier puts them after every dated run
ledger: hint: give the first row's start with --started-at (e.g. --started-at 2026-03-16T04:00:00Z; rows then start --every 300 s apart); rows with times are new content, so ingest into a ledger that does not hold this file without them" "$err"
expect_eq ledger-ingest-tsv-11.3 "the rows are stored without t_finished" "3|0" \
	"$(sql nt.db "SELECT count(*), count(t_finished) FROM runs")"
expect_code ledger-ingest-tsv-11.4 "the same file again: exit 0" 0 "$LEDGER" --db nt.db ingest notime.tsv
expect_eq ledger-ingest-tsv-11.5 "nothing new, nothing said again" "" "$err"
expect_code ledger-ingest-tsv-11.6 "with --started-at: exit 0" 0 "$LEDGER" --db nt2.db ingest notime.tsv --started-at 2026-03-16T04:00:00Z
expect_eq ledger-ingest-tsv-11.7 "with --started-at: no warning, every row timed" "|3" "$err|$(sql nt2.db "SELECT count(t_finished) FROM runs")"
printf 'commit\tval_bpb\tstatus\tfinished_at\naaaaaaa\t1.0\tkeep\t2026-03-16T04:05:00Z\nbbbbbbb\t0.99\tkeep\t\n' >onetime.tsv
"$LEDGER" --db nt3.db ingest onetime.tsv >/dev/null 2>stderr.txt
expect_match ledger-ingest-tsv-11.8 "a time column with an empty cell: that row is counted" "$(cat stderr.txt)" \
	'^ledger: warning: ingest: onetime\.tsv: 1 new run has no time \(an empty started_at/finished_at, and no --started-at\)'

# --- hardware: unknown GPU names, peak memory above the card ---------------
printf 'commit\tval_bpb\tmemory_gb\tstatus\tdescription\tgpu\n' >hw.tsv
printf 'a1\t1.0\t70.0\tkeep\tbaseline\tNVIDIA H100 80GB HBM3\n' >>hw.tsv
printf 'a2\t0.99\t90.0\tkeep\tdepth 9\tNVIDIA H100 80GB HBM3\n' >>hw.tsv
printf 'a3\t0.98\t20.0\tdiscard\tdepth 10\tMystery GPU 9000\n' >>hw.tsv
printf 'a4\t0.98\t20.0\tdiscard\tdepth 11\tMystery GPU 9000\n' >>hw.tsv
printf 'a5\t0.97\t95.0\tdiscard\tdepth 12\tNVIDIA H100 80GB HBM3\n' >>hw.tsv
printf 'a6\t0.97\t30.0\tdiscard\tdepth 13\tNVIDIA GeForce RTX 4090\n' >>hw.tsv
printf 'a7\t0.97\t23.5\tdiscard\tdepth 14\tNVIDIA GeForce RTX 4090\n' >>hw.tsv
printf 'a8\t0.97\t20.0\tdiscard\tdepth 15\tOther GPU\n' >>hw.tsv
expect_code ledger-ingest-tsv-12.1 "hardware warnings: still exit 0" 0 "$LEDGER" --db hw.db ingest hw.tsv --started-at 2026-03-16T04:00:00Z
expect_eq ledger-ingest-tsv-12.2 "unknown names once each at their first line; memory above the card at each GPU's first row; a count" \
"ledger: warning: ingest: hw.tsv:3: peak memory 90.0 GB (metrics.peak_vram_mb 92160) is more than the 80 GB of one NVIDIA H100 80GB HBM3: the GPU name or the measurement is wrong
ledger: hint: check the GPU (--hardware, the gpu column); 'ledger show' marks such runs with ledger.peak_vram_above_card
ledger: warning: ingest: hw.tsv:4: GPU 'Mystery GPU 9000' is not in the hardware table: its runs get the class 'Mystery GPU 9000', a VRAM tier only from hardware.gpu_mem_mb, and no peak for MFU (said once per GPU name)
ledger: hint: check the spelling (as nvidia-smi prints it, e.g. 'NVIDIA H100 80GB HBM3'); the known GPUs are listed in common/hw.c
ledger: warning: ingest: hw.tsv:7: peak memory 30.0 GB (metrics.peak_vram_mb 30720) is more than the 24 GB of one NVIDIA GeForce RTX 4090: the GPU name or the measurement is wrong
ledger: hint: check the GPU (--hardware, the gpu column); 'ledger show' marks such runs with ledger.peak_vram_above_card
ledger: warning: ingest: hw.tsv:9: GPU 'Other GPU' is not in the hardware table: its runs get the class 'Other GPU', a VRAM tier only from hardware.gpu_mem_mb, and no peak for MFU (said once per GPU name)
ledger: hint: check the spelling (as nvidia-smi prints it, e.g. 'NVIDIA H100 80GB HBM3'); the known GPUs are listed in common/hw.c
ledger: warning: ingest: hw.tsv: 3 rows in all have a peak memory above their GPU's (the first for each GPU is named above)" "$err"
expect_eq ledger-ingest-tsv-12.3 "the runs are stored as they came" "8|H100|3|RTX 4090|2" \
	"$(sql hw.db "SELECT count(*), (SELECT hw_class FROM runs WHERE id = 1), (SELECT count(*) FROM runs WHERE hw_class = 'H100'), (SELECT hw_class FROM runs WHERE id = 6), (SELECT count(*) FROM runs WHERE hw_class = 'RTX 4090') FROM runs")"
expect_code ledger-ingest-tsv-12.4 "--hardware names an unknown GPU: warned once, at the first row" 0 \
	"$LEDGER" --db hw2.db ingest ten.tsv --hardware "NVIDIA Quantum Q1" --started-at 2026-03-16T04:00:00Z
expect_eq ledger-ingest-tsv-12.5 "one warning for ten rows" "1|ledger: warning: ingest: ten.tsv:2: GPU 'NVIDIA Quantum Q1'" \
	"$(printf '%s\n' "$err" | grep -c 'not in the hardware table')|$(printf '%s\n' "$err" | grep -o "^.*ten.tsv:[0-9]*: GPU 'NVIDIA Quantum Q1'")"

# --- failure words in descriptions set the status of crash / status-less rows
printf 'commit\tval_bpb\tmemory_gb\tstatus\tdescription\n' >fail.tsv
printf 'a1\t1.0\t40.0\tkeep\tbaseline\n' >>fail.tsv
printf 'a2\t0.000000\t0.0\tcrash\tdepth 12 (OOM)\n' >>fail.tsv
printf 'a3\t0.000000\t0.0\tcrash\tHUNG at step 40\n' >>fail.tsv
printf 'a4\t0.000000\t0.0\t\tbatch 64 timed out\n' >>fail.tsv
printf 'a5\t0.000000\t0.0\tCRASH\tSKIPPED: same as a3\n' >>fail.tsv
printf 'a6\t0.99\t40.0\tkeep\tretry of the OOM config, batch 16\n' >>fail.tsv
printf 'a7\t0.995\t40.0\tdiscard\tdepth 13 hung once, rerun\n' >>fail.tsv
printf 'a8\t0.000000\t0.0\tcrash\troom for a bigger zoomed model\n' >>fail.tsv
printf 'a9\t0.000000\t0.0\tcrash\tout of memory at depth 14\n' >>fail.tsv
printf 'b1\t0.000000\t0.0\t\tno status, no word\n' >>fail.tsv
expect_code ledger-ingest-tsv-13.1 "failure words: exit 1 (the row with neither status nor word)" 1 \
	"$LEDGER" --db fail.db ingest fail.tsv --started-at 2026-03-16T04:00:00Z
expect_eq ledger-ingest-tsv-13.2 "crash and status-less rows take the status their words name; measured rows stay" \
"1|ok|baseline|1.0
2|oom||
3|timeout||
4|timeout||
5|invalid||
6|ok|keep|0.99
7|ok|discard|0.995
8|crash||
9|oom||" "$(sql fail.db "SELECT id, status, decision, val_bpb FROM runs ORDER BY id")"
expect_eq ledger-ingest-tsv-13.3 "no status and no failure word is still refused" "ledger: ingest: fail.tsv:11: status is empty" "$err"
expect_code ledger-ingest-tsv-12.6 "the same file again: exit 0" 0 "$LEDGER" --db hw.db ingest hw.tsv --started-at 2026-03-16T04:00:00Z
expect_eq ledger-ingest-tsv-12.7 "nothing new, no hardware warning again" "" "$err"

# --- a ledger an older build wrote (before failure words, "(OOM)" stayed
# status crash) takes the same file again without new runs: a row's
# identity is what the file says (crash), its status what the words name,
# and the stored crash is brought up to that status in place. The older
# ledger holds what that build stored (its run ids checked against a build
# of bc5180e^): the measured rows as this build stores them, and the
# failed rows' records with status crash, loaded as runs.jsonl without a
# run_id so that it is derived from their content, as it was.
printf 'commit\tval_bpb\tmemory_gb\tstatus\tdescription\n' >old.tsv
printf 'a1\t1.2\t40.0\tkeep\tbaseline\n' >>old.tsv
printf 'a2\t0.000000\t0.0\tcrash\tdepth 16 (OOM)\n' >>old.tsv
printf 'a3\t1.1\t40.0\tkeep\tdevice batch 16\n' >>old.tsv
printf 'a4\t0.000000\t0.0\tcrash\tdepth 12 HUNG at step 40\n' >>old.tsv
printf 'a5\t1.05\t40.0\tdiscard\tdepth 10\n' >>old.tsv
"$LEDGER" --db now.db ingest old.tsv >/dev/null 2>&1
grep -v crash old.tsv >measured.tsv
"$LEDGER" --db older.db ingest measured.tsv >/dev/null 2>&1
sql now.db "SELECT record FROM runs WHERE status IN ('oom', 'timeout') ORDER BY id" |
	jq -c 'del(.run_id) | .status = "crash"' >failed.jsonl
"$LEDGER" --db older.db ingest failed.jsonl >/dev/null 2>&1
expect_eq ledger-ingest-tsv-14.1 "the older ledger: 5 runs, the failed ones stored as crash" \
	"ok|ok|ok|crash|crash" "$(sql older.db "SELECT group_concat(status, '|') FROM (SELECT status FROM runs ORDER BY id)")"
expect_code ledger-ingest-tsv-14.2 "the same file into it: exit 0" 0 "$LEDGER" --db older.db ingest old.tsv
expect_match ledger-ingest-tsv-14.3 "... no new run" "$out" '^old\.tsv: 0 new, '
expect_eq ledger-ingest-tsv-14.4 "... still 5 runs, the failed ones now with the status their words name" \
	"ok|ok|ok|oom|timeout" "$(sql older.db "SELECT group_concat(status, '|') FROM (SELECT status FROM runs ORDER BY id)")"
expect_eq ledger-ingest-tsv-14.5 "... the runs and ids a fresh ingest stores" \
	"$(sql now.db "SELECT group_concat(run_id || ' ' || status, '|') FROM (SELECT * FROM runs ORDER BY run_id)")" \
	"$(sql older.db "SELECT group_concat(run_id || ' ' || status, '|') FROM (SELECT * FROM runs ORDER BY run_id)")"
expect_code ledger-ingest-tsv-14.6 "and a third time: exit 0" 0 "$LEDGER" --db older.db ingest old.tsv
expect_match ledger-ingest-tsv-14.7 "... 0 new, 5 already present" "$out" '^old\.tsv: 0 new, 5 already present'

# --- a wider real layout (tests/fixtures/real/elemcoll-qwen35-results.tsv):
# peak_mem_gb is memory_gb under another name and tok_sec is tokens per
# second; before, they were stored as metrics 'peak_mem_gb' (GB) and
# 'tok_sec', so no peak memory and no throughput reached the ledger
Q="$FIXTURES/real/elemcoll-qwen35-results.tsv"
"$LEDGER" --db q.db ingest "$Q" >/dev/null 2>&1
first=$(sed -n 2p "$Q")
expect_eq ledger-ingest-tsv-15.1 "peak_mem_gb -> peak_vram_mb (x 1024), tok_sec -> tokens_per_second, from the gpu_name column" \
	"$(printf '%s' "$first" | awk -F'\t' '{ printf "%.1f|%d|%s", $4 * 1024, $5, $10 }')|||" \
	"$(sql q.db "SELECT printf('%.1f', json_extract(record, '\$.metrics.peak_vram_mb')) || '|' || json_extract(record, '\$.metrics.tokens_per_second') || '|' || gpu_name || '|' || coalesce(json_extract(record, '\$.metrics.peak_mem_gb'), '') || '|' || coalesce(json_extract(record, '\$.metrics.tok_sec'), '') || '|' FROM runs WHERE id = 1")"
expect_eq ledger-ingest-tsv-15.2 "... every row, the crash with no zeros" "51|50|1" \
	"$(sql q.db "SELECT count(*) FROM runs")|$(sql q.db "SELECT count(*) FROM runs WHERE json_extract(record, '\$.metrics.peak_vram_mb') > 0")|$(sql q.db "SELECT count(*) FROM runs WHERE status = 'crash' AND json_extract(record, '\$.metrics') IS NULL")"
# size_violation (anaclumos-pgolf row 22): measured, but the artifact broke
# the 16 MB cap. Before, the row was refused ("status 'size_violation' is
# not keep, discard or crash") and the session lost it; now it is a measured
# discard that may not stand: status invalid (no valid measurement, so no
# frontier), its value in the record, the reason in failure.message
cp "$FIXTURES/real/anaclumos-pgolf-results.tsv" .
expect_code ledger-ingest-tsv-15.3 "size_violation (anaclumos-pgolf): ingested, nothing quarantined: exit 0" 0 \
	"$LEDGER" --db g.db ingest anaclumos-pgolf-results.tsv
expect_eq ledger-ingest-tsv-15.4 "... 25 runs; the row: invalid, discard, val_bpb in the record only, the reason said" \
	"25|invalid|discard||2.17732936|inadmissible: measured val_bpb 2.17732936, but results.tsv says size_violation (the artifact broke the size limit)" \
	"$(sql g.db "SELECT count(*) FROM runs")|$(sql g.db "SELECT status || '|' || decision || '|' || coalesce(val_bpb, '') || '|' || json_extract(record, '\$.metrics.val_bpb') || '|' || json_extract(record, '\$.failure.message') FROM runs WHERE source_line = 23")"
printf 'commit\tval_bpb\tmemory_gb\tstatus\tdescription\nf000001\t1.0\t1.0\tkeep\tbaseline\nf000002\t0.0\t0.0\tSIZE_VIOLATION\tdepth 8 to 16\nf000003\t0.99\t1.0\tkeep\tdepth 8 to 9\n' >sv.tsv
"$LEDGER" --db sv.db ingest sv.tsv >/dev/null 2>&1
expect_eq ledger-ingest-tsv-15.5 "... in any case; without a value it measured nothing (invalid, no inadmissible mark), and it moves no parent" \
	"invalid|discard|results.tsv says discard with val_bpb '0.0', which is no measurement|f000001" \
	"$(sql sv.db "SELECT status || '|' || decision || '|' || json_extract(record, '\$.failure.message') FROM runs WHERE code_commit = 'f000002'")|$(sql sv.db "SELECT p.code_commit FROM runs r JOIN runs p ON p.run_id = r.parent WHERE r.code_commit = 'f000003'")"

# --- a kept column instead of status, notes instead of description
# (tests/fixtures/real/parthwhy-t4-results.tsv): before, the whole file was
# refused ("the header has no status column"). The kept cell says True for
# the baseline and a status word after; True/False (any case) are keep and
# discard there, and only there
cp "$FIXTURES/real/parthwhy-t4-results.tsv" pw.tsv
expect_code ledger-ingest-tsv-16.1 "kept and notes columns (parthwhy-t4): ingested, exit 0" 0 \
	"$LEDGER" --db pw.db ingest pw.tsv
expect_eq ledger-ingest-tsv-16.2 "... 4 runs: the baseline, three discards on it, each with its notes as description" \
	"ok baseline baseline T4 run 0|ok discard Reduce device batch size to increase gradient noise and potentially improve generalization. 1|ok discard Reduce DEVICE_BATCH_SIZE to increase gradient noise and potentially improve generalization. 1|ok discard Increase matrix learning rate to potentially improve parameter updates. 1" \
	"$(sql pw.db "SELECT group_concat(status || ' ' || decision || ' ' || description || ' ' || (parent IS NOT NULL), '|') FROM (SELECT * FROM runs ORDER BY id)")"
printf 'commit\tval_bpb\tmemory_gb\tkept\tnotes\na1\t1.0\t1.0\tTRUE\tbaseline\na2\t0.9\t1.0\ttrue\tdepth 8 to 9\na3\t0.95\t1.0\tFalse\tdepth 9 to 10\na4\t0\t0\tcrash\tdepth 9 to 12\n' >kept.tsv
"$LEDGER" --db kept.db ingest kept.tsv >/dev/null 2>&1
expect_eq ledger-ingest-tsv-16.3 "... True/False in any case (the first kept row is the baseline); a kept row is the next one's parent; crash is still a crash" \
	"a1 baseline|a2 keep a1|a3 discard a2|a4 crash a2" \
	"$(sql kept.db "SELECT group_concat(r.code_commit || ' ' || CASE WHEN r.status = 'crash' THEN 'crash' ELSE r.decision END || coalesce(' ' || p.code_commit, ''), '|') FROM (SELECT * FROM runs ORDER BY id) r LEFT JOIN runs p ON p.run_id = r.parent")"
printf 'commit\tval_bpb\tmemory_gb\tstatus\tdescription\nb1\t1.0\t1.0\ttrue\tbaseline\n' >truestatus.tsv
expect_code ledger-ingest-tsv-16.4 "a status column saying true is no status word there: the row quarantined, exit 1" 1 \
	"$LEDGER" --db ts.db ingest truestatus.tsv
