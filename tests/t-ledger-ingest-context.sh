# t-ledger-ingest-context.sh — a setting a description restates is no change.
# Test plan: a results.tsv shaped like a real session (a baseline stating
# depth=4 dim=256, kept rows that move depth and the batch, discards that
# restate the kept values next to a real change, a toggle restated after it
# was kept, a restatement with its old value written out: no change where
# it is the kept transition, a change where the old value is another); ingest it and
# check, row by row, the changes recorded: restated values are gone, real
# changes stay, with the old value the parent's state knows (infer_fill_old;
# no width or ratio from a state whose depth moved without a stated width). Then a runrec/1 run without a config
# whose parent has one: the parent's config is what it had. A file whose
# first row crashed: that row is the parent of the rows until a keep. Then reinfer
# finds nothing to redo on a fresh ingest, and removes a restatement that an
# older ledger recorded.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
cat >r.tsv <<'EOT'
commit	val_bpb	memory_gb	status	description
c1	1.00	10	keep	baseline: depth=4 dim=256
c2	0.99	10	keep	DEPTH=8
c3	0.99	10	discard	DEPTH=8, ASPECT_RATIO=96
c4	0.99	10	discard	dim=256 depth 8 to 12
c5	0.98	10	keep	halve batch
c6	0.99	10	discard	DEPTH=4
c7	0.97	10	keep	add value embeddings
c8	0.98	10	discard	value embeddings, WEIGHT_DECAY=0.1
c9	0.98	10	discard	no value embeddings, DEPTH=8, dim=256
c10	0.98	10	crash	DEPTH=8 (was 4)
c11	0.98	10	crash	DEPTH=8 (was 6)
EOT
DB=l.db
expect_code ledger-ingest-context-1.1 "ingest exits 0" 0 "$LEDGER" --db $DB ingest r.tsv
# changes C: "var old new; …" of the run whose commit is C ('-' for none)
changes() {
	v=$(sql $DB "SELECT group_concat(var || ' ' || ifnull(old, '?') || ' ' || ifnull(new, '?'), '; ')
		FROM (SELECT c.var, c.old, c.new FROM changes c JOIN runs r ON r.id = c.run
		WHERE r.code_commit = '$1' ORDER BY c.var)")
	printf '%s\n' "${v:--}"
}
expect_eq ledger-ingest-context-1.2 "the baseline records nothing (its values are its state)" "-" "$(changes c1)"
expect_eq ledger-ingest-context-1.3 "a kept change, its old value the baseline's" "model.depth 4 8" "$(changes c2)"
expect_eq ledger-ingest-context-1.4 "depth 8 restated after the kept DEPTH=8: only the aspect ratio (old '?': the width followed the depth)" \
	"model.aspect_ratio ? 96" "$(changes c3)"
expect_eq ledger-ingest-context-1.5 "dim 256 from the baseline's description is no change; 'depth 8 to 12' is" \
	"model.depth 8 12" "$(changes c4)"
expect_eq ledger-ingest-context-1.6 "a step of unknown size is a change" "train.total_batch_size ? ?" "$(changes c5)"
expect_eq ledger-ingest-context-1.7 "depth back to 4 is a change, from the parent's 8" \
	"model.depth 8 4" "$(changes c6)"
expect_eq ledger-ingest-context-1.8 "a kept toggle" "desc.value_embeddings ? true" "$(changes c7)"
expect_eq ledger-ingest-context-1.9 "the kept toggle restated: only weight decay" "optim.weight_decay ? 0.1" "$(changes c8)"
expect_eq ledger-ingest-context-1.10 "turning it off is a change; depth and dim restated are not" \
	"desc.value_embeddings true false" "$(changes c9)"
expect_eq ledger-ingest-context-1.11 "the kept change 4 -> 8 restated with its old value written out is no change (round 13)" \
	"-" "$(changes c10)"
expect_eq ledger-ingest-context-1.11b "an old value the state did not record is kept (the text knows better)" \
	"model.depth 6 8" "$(changes c11)"

# A first row that crashed is no baseline, but the rows after it changed
# its configuration: it is their parent until one is kept.
cat >crash.tsv <<'EOT'
commit	val_bpb	memory_gb	status	description
k1	0.000000	0.0	crash	baseline (no changes) killed with exit 137
k2	0.000000	0.0	crash	reduce warmup_steps from 20 to 2
k3	1.10	10	keep	DEVICE_BATCH_SIZE=16
k4	1.09	10	discard	DEVICE_BATCH_SIZE=16, depth 8 to 9
EOT
expect_code ledger-ingest-context-1.12 "a file whose first row crashed" 0 "$LEDGER" --db crash.db ingest crash.tsv
expect_eq ledger-ingest-context-1.13 "... is no baseline and has no parent" "|crash|" \
	"$(sql crash.db "SELECT ifnull(decision, ''), status, ifnull(parent, '') FROM runs WHERE code_commit = 'k1'")"
expect_eq ledger-ingest-context-1.13b "... and is the parent of the rows up to the first keep" "k1 k1 k3" \
	"$(sql crash.db "SELECT group_concat(p.code_commit, ' ') FROM (SELECT r.parent FROM runs r ORDER BY r.id) x
		JOIN runs p ON p.run_id = x.parent")"
DB=crash.db
expect_eq ledger-ingest-context-1.14 "... so their changes are recorded" "desc.warmup_steps 20 2" "$(changes k2)"
expect_eq ledger-ingest-context-1.15 "... and the kept row's are state" "model.depth 8 9" "$(changes k4)"
DB=l.db

# A run without a config below one with a config: the config is the state.
cat >rr.jsonl <<'EOT'
{"schema":"runrec/1","run_id":"p","description":"baseline","status":"ok","decision":"baseline","config":{"model.depth":8,"optim.matrix_lr":0.04}}
{"schema":"runrec/1","run_id":"k","parent":"p","description":"MATRIX_LR=0.04, depth 9","status":"ok","decision":"discard"}
EOT
expect_code ledger-ingest-context-2.1 "runrec ingest exits 0" 0 "$LEDGER" --db rr.db ingest rr.jsonl
expect_eq ledger-ingest-context-2.2 "the parent's config value is no change; the other's old is the config's" "model.depth|8|9|inferred" \
	"$(sql rr.db "SELECT c.var, c.old, c.new, c.how FROM changes c JOIN runs r ON r.id = c.run WHERE r.run_id = 'k'")"

expect_code ledger-ingest-context-3.1 "reinfer --dry-run on a fresh ingest" 0 "$LEDGER" --db $DB --format tsv reinfer --dry-run
expect_eq ledger-ingest-context-3.2 "... finds nothing to redo" "0" "$(printf '%s\n' "$out" | tail -1 | cut -f3)"
run=$(sql $DB "SELECT id FROM runs WHERE code_commit = 'c3'")
sql $DB "INSERT INTO changes(run, var, old, new, how, span, infer_version)
	VALUES($run, 'model.depth', NULL, '8', 'inferred', 'DEPTH=8', 2)"
expect_code ledger-ingest-context-3.3 "reinfer on a ledger that recorded a restatement" 0 "$LEDGER" --db $DB --format tsv reinfer
expect_eq ledger-ingest-context-3.4 "... changes that run" "1" "$(printf '%s\n' "$out" | tail -1 | cut -f3)"
expect_eq ledger-ingest-context-3.5 "... and drops the restatement" "model.aspect_ratio ? 96" "$(changes c3)"
