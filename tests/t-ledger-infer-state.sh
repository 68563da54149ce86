# t-ledger-infer-state.sh — an inferred change's old value from the
# parent's state (ledger/infer.c infer_fill_old, called by store.c
# store_infer_changes for ingest and reinfer).
# Test plan: a results.tsv whose baseline states depth, width, Adam betas,
# batch, warmup and activation; rows after it that state only new values:
# each gets the baseline's value as its old one where the form matches (a
# tuple for a tuple, a word for a word), '?' where it does not (a number for
# a tuple), where the state knows nothing (matrix LR, a run whose parent is
# not stored) or the new value is unknown ("halve batch"); a restated value
# is no change at all. Then a ledger as INFER_VERSION 8 wrote the real
# hsgngr session (row 2's olds '?'): reinfer fills them, as a fresh ingest
# does, and the audit stops calling row 2 confounded.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
need jq jq
V=$(sed -n 's/^#define INFER_VERSION \([0-9]*\).*/\1/p' "$ROOT/ledger/infer.h")
cat >g.tsv <<'EOT'
commit	val_bpb	memory_gb	status	description
a1	1.0	10	keep	baseline: depth=4 dim=256 ADAM_BETAS=(0.8, 0.95) TOTAL_BATCH_SIZE=2^16 WARMUP=500 steps activation gelu
a2	1.1	10	discard	depth=8 dim=512
a3	1.1	10	discard	ADAM_BETAS=(0.9,0.95)
a4	1.1	10	discard	ADAM_BETAS=0.9
a5	1.1	10	discard	TOTAL_BATCH_SIZE=2^15
a6	1.1	10	discard	depth=4 MATRIX_LR=0.05
a7	1.1	10	discard	halve batch
a8	1.1	10	discard	warmup 1k steps
a9	1.1	10	discard	activation relu
a10	1.1	10	discard	ASPECT_RATIO=96
EOT
expect_code infer-state-1.1 "ingest exits 0" 0 "$LEDGER" --db g.db ingest g.tsv
changes() { # DB COMMIT: "var old -> new; …" of that run
	sql "$1" "SELECT group_concat(var || ' ' || ifnull(old, '?') || ' -> ' || ifnull(new, '?'), '; ')
		FROM (SELECT c.var, c.old, c.new FROM changes c JOIN runs r ON r.id = c.run
		WHERE r.code_commit = '$2' ORDER BY c.var)"; }
expect_eq infer-state-1.2 "depth and width: the baseline's as old" "model.depth 4 -> 8; model.dim 256 -> 512" "$(changes g.db a2)"
expect_eq infer-state-1.3 "a tuple for a tuple" "optim.adam_betas (0.8, 0.95) -> (0.9, 0.95)" "$(changes g.db a3)"
expect_eq infer-state-1.4 "a number for a tuple: '?'" "optim.adam_betas ? -> 0.9" "$(changes g.db a4)"
expect_eq infer-state-1.5 "2^16 and 2^15 as the numbers they are" "train.total_batch_size 65536 -> 32768" "$(changes g.db a5)"
expect_eq infer-state-1.6 "a restatement is no change; a knob the state lacks keeps '?'" "optim.matrix_lr ? -> 0.05" "$(changes g.db a6)"
expect_eq infer-state-1.7 "an unknown new value: '?' on both sides" "train.total_batch_size ? -> ?" "$(changes g.db a7)"
expect_eq infer-state-1.8 "a desc.* knob and a word" "desc.warmup_steps 500 -> 1000|model.activation gelu -> relu" \
	"$(changes g.db a8)|$(changes g.db a9)"
expect_eq infer-state-1.9 "the ratio the depth and width imply (256 / 4)" "model.aspect_ratio 64 -> 96" "$(changes g.db a10)"
cat >orphan.jsonl <<'EOT'
{"schema":"runrec/1","run_id":"o1","parent":"not-stored","description":"depth=8 dim=512","status":"ok","decision":"discard"}
EOT
"$LEDGER" --db g.db ingest orphan.jsonl >/dev/null 2>&1
expect_eq infer-state-1.10 "a parent not in the ledger: nothing known, '?'" "model.depth ? -> 8; model.dim ? -> 512" \
	"$(sql g.db "SELECT group_concat(var || ' ' || ifnull(old, '?') || ' -> ' || new, '; ') FROM
		(SELECT c.* FROM changes c JOIN runs r ON r.id = c.run WHERE r.run_id = 'o1' ORDER BY var)")"

# 2: reinfer on a ledger of the build before (INFER_VERSION 8: no olds filled)
F="$FIXTURES/real/hsgngr-macos-results.tsv"
"$LEDGER" --db fresh.db ingest "$F" --hardware "Apple M4 Max" --campaign hsg >/dev/null 2>&1 ||
	{ not_ok infer-state-2.0 "ingest the real file"; exit 1; }
printf '{"name":"hsg","baseline":"first valid run","search_space":["model.*","optim.*","sched.*","train.*"],"record_budget":30}\n' >c.json
"$LEDGER" --db fresh.db campaign add c.json >/dev/null
cp fresh.db old.db
row2=$(sql old.db "SELECT id FROM runs WHERE description LIKE 'depth=8 dim=512%'")
run2=$(sql old.db "SELECT run_id FROM runs WHERE id = $row2")
sql old.db "UPDATE changes SET old = NULL, infer_version = 8 WHERE run = $row2"
row2_changes() { sql "$1" "SELECT group_concat(var || ' ' || ifnull(old, '?') || ' -> ' || new || ' v' || infer_version, '; ')
	FROM (SELECT * FROM changes WHERE run = $row2 ORDER BY var)"; }
confounded_row2() { "$LEDGER" --db "$1" audit --campaign hsg --kind confounded --format json |
	jq --arg r "$run2" '[.[] | select(.runs | index($r))] | length'; }
expect_eq infer-state-2.1 "the old ledger: row 2 as build 8 stored it, confounded" "model.depth ? -> 8 v8; model.dim ? -> 512 v8|1" \
	"$(row2_changes old.db)|$(confounded_row2 old.db)"
expect_code infer-state-2.2 "reinfer exits 0" 0 "$LEDGER" --db old.db --format tsv reinfer
expect_eq infer-state-2.3 "... changes one run's changes: row 2's" "1" "$(printf '%s\n' "$out" | tail -1 | cut -f3)"
expect_eq infer-state-2.4 "... to the baseline's olds, at the current version" \
	"model.depth 4 -> 8 v$V; model.dim 256 -> 512 v$V" "$(row2_changes old.db)"
expect_eq infer-state-2.5 "... as a fresh ingest has them" "$(row2_changes fresh.db)" "$(row2_changes old.db)"
expect_eq infer-state-2.6 "... and the audit no longer calls it confounded" "0" "$(confounded_row2 old.db)"

# 3: round 13, the state across a file. A kept "Default … baseline" in the
# middle (entrpi-m5's shape) resets the state to what it states: the seed
# it names is no change in the next row, and a setting kept before it
# (total batch 4096) holds no more, so stating it again is a change. A
# baseline of the current config ("baseline rerun on current train.py")
# keeps the state. A row that states the same transition as the kept row
# before it (chauhang-linuxrtx's two GPUs) restates it.
cat >s.tsv <<'EOT'
commit	val_bpb	memory_gb	status	description
b1	1.0	10	keep	baseline seed=1000 depth=4
b2	0.9	10	keep	seed=1001 TOTAL_BATCH_SIZE=4096
b3	1.0	10	keep	Default M5 baseline, seed=1000
b4	0.9	10	keep	SwiGLU MLP + 2% warmup, seed=1000
b5	0.9	10	discard	seed=1000 TOTAL_BATCH_SIZE=4096
b6	0.8	10	keep	WARMDOWN_RATIO 0.5->0.3: GPU0 result
b7	0.8	10	keep	WARMDOWN_RATIO 0.5->0.3: GPU1 result (best)
b8	0.8	10	keep	baseline rerun on current train.py
b9	0.8	10	discard	WARMDOWN_RATIO=0.3 depth=6
EOT
expect_code infer-state-3.1 "ingest exits 0" 0 "$LEDGER" --db s.db ingest s.tsv
expect_eq infer-state-3.2 "the mid-file default baseline records nothing" "" "$(changes s.db b3)"
expect_eq infer-state-3.3 "... the seed it states is no change after it" "model.activation ? -> swiglu; sched.warmup_ratio ? -> 0.02" "$(changes s.db b4)"
expect_eq infer-state-3.4 "... a setting kept before it is a change again" "train.total_batch_size ? -> 4096" "$(changes s.db b5)"
expect_eq infer-state-3.5 "the same transition as the kept row before: no change" "" "$(changes s.db b7)"
expect_eq infer-state-3.6 "a baseline of the current config keeps the state (warmdown 0.3)" "model.depth ? -> 6" "$(changes s.db b9)"
# the file ingested once up to b3 and then whole: the second process has
# no state in memory and walks the parent chain up from what is stored
head -4 s.tsv >s1.tsv
"$LEDGER" --db t.db ingest s1.tsv >/dev/null 2>&1
expect_code infer-state-3.7 "the whole file ingests after its first rows" 0 "$LEDGER" --db t.db ingest s.tsv
expect_eq infer-state-3.8 "... to the same changes (the walk resets at the baseline too)" \
	"$(changes s.db b4)|$(changes s.db b5)|$(changes s.db b7)|$(changes s.db b9)" \
	"$(changes t.db b4)|$(changes t.db b5)|$(changes t.db b7)|$(changes t.db b9)"
expect_code infer-state-3.9 "reinfer exits 0" 0 "$LEDGER" --db s.db --format tsv reinfer
expect_eq infer-state-3.10 "... and changes nothing: ingest and reinfer build one state" "0" \
	"$(printf '%s\n' "$out" | tail -1 | cut -f3)"

# 4: round 13, a bare LR named from the parent's state at ingest. A
# one-optimizer file (fourcolors-small's shape): its AdamW-sized LR is
# desc.lr, and an LR the file already set is then desc.lr at any size; a
# file that kept MATRIX_LR (chauhang-linuxrtx's shape): its bare LR is the
# matrix LR, restated where the state has the value; an LR of no known
# part's size is read as nothing.
cat >l.tsv <<'EOT'
commit	val_bpb	memory_gb	status	description
c1	1.0	10	keep	baseline
c2	0.9	10	keep	increase LR from 3e-4 to 1e-3
c3	1.0	10	discard	LR=2e-2 (too high)
EOT
cat >m.tsv <<'EOT'
commit	val_bpb	memory_gb	status	description
d1	1.0	10	keep	baseline
d2	0.9	10	keep	MATRIX_LR=0.06 GPU1 (141 steps, new best)
d3	1.0	10	keep	ASPECT_RATIO=128 n_embd=256 LR=0.06 GPU1
d4	1.0	10	discard	DEPTH=3 LR=0.08 GPU1
d5	1.0	10	discard	LR=0.5 GPU0
EOT
expect_code infer-state-4.1 "ingest exits 0" 0 "$LEDGER" --db l.db ingest l.tsv m.tsv
expect_eq infer-state-4.2 "one optimizer: desc.lr" "desc.lr 0.0003 -> 0.001|desc.lr 0.001 -> 0.02" \
	"$(changes l.db c2)|$(changes l.db c3)"
expect_eq infer-state-4.3 "after a kept MATRIX_LR: the matrix LR, restated, then changed" \
	"model.aspect_ratio ? -> 128; model.dim ? -> 256|model.depth ? -> 3; optim.matrix_lr 0.06 -> 0.08" \
	"$(changes l.db d3)|$(changes l.db d4)"
expect_eq infer-state-4.4 "an LR of no known part's size: nothing" "" "$(changes l.db d5)"
