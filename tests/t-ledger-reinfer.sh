# t-ledger-reinfer.sh — `ledger reinfer` after an upgrade of the rules.
# Test plan: ingest a results.tsv (inferred changes) and the query fixture
# (exact changes, and one run with a config whose parent has none) into a
# ledger; copy it and make the copy look written by older rules (a run
# label read as a variable with a stale repeat key, a result read as a
# change, a lost change, rows of version 1, and a tampered exact change);
# --dry-run counts and writes nothing; reinfer gives back exactly the
# inferred changes and repeat keys of a fresh ingest, puts the tampered
# exact change back as the two configs give it (12 runs read: 5 inferred,
# 7 exact), and a second reinfer finds nothing to do; json output;
# usage errors; exact changes of reals written in the old number format
# (6e+02) come back as plain decimals.
. "$ROOT/tests/lib.sh"
# the rules' version, as the build has it (ledger/infer.h)
V=$(sed -n 's/^#define INFER_VERSION \([0-9]*\).*/\1/p' "$ROOT/ledger/infer.h")
cat >r.tsv <<'EOT'
commit	val_bpb	memory_gb	status	description
a1	1.0	10	keep	baseline
a2	0.99	10	discard	exp12 depth 8 to 9
a3	0.98	10	discard	exp13 depth 8 to 9 (again)
a4	0.97	10	keep	MATRIX_LR 0.04→0.05: MFU 60.5→62.6%
a5	0.97	10	discard	rerun of exp13
EOT
"$LEDGER" --db fresh.db ingest r.tsv >/dev/null 2>&1 &&
	"$LEDGER" --db fresh.db ingest "$FIXTURES/query/runs.jsonl" >/dev/null 2>&1 ||
	{ not_ok ledger-reinfer-0 "fixtures ingest"; exit 1; }
cp fresh.db old.db
id() { sql fresh.db "SELECT id FROM runs WHERE description = '$1'"; }
label=$(id 'exp12 depth 8 to 9') again=$(id 'exp13 depth 8 to 9 (again)')
mfu=$(id 'MATRIX_LR 0.04→0.05: MFU 60.5→62.6%') wd=$(id 'weight decay 0 to 0.1')
exact=$(id 'depth 9 -> 12')
sql old.db "UPDATE changes SET var = 'desc.exp12_depth', infer_version = 1 WHERE run = $label;
	UPDATE runs SET repeat_key = 'stale' WHERE id = $label;
	INSERT INTO changes VALUES($mfu, 'desc.mfu', '60.5', '62.6', 'inferred', 'MFU 60.5→62.6%', 1);
	UPDATE changes SET infer_version = 1 WHERE run = $again;
	DELETE FROM changes WHERE run = $wd;
	UPDATE changes SET old = '7' WHERE run = $exact"
inferred() { sql "$1" "SELECT group_concat(x, '|') FROM (SELECT run || ' ' || var || ' ' || ifnull(old, '?') || ' ' ||
	ifnull(new, '?') || ' ' || ifnull(span, '-') || ' v' || infer_version AS x FROM changes WHERE how = 'inferred' ORDER BY run, var)"; }
keys() { sql "$1" "SELECT group_concat(id || ' ' || ifnull(repeat_key, '-'), '|') FROM runs"; }
[ "$(inferred fresh.db)" != "$(inferred old.db)" ] && ok ledger-reinfer-0.1 "the copy differs" ||
	not_ok ledger-reinfer-0.1 "the copy differs"

sql old.db .dump >before.sql
expect_code ledger-reinfer-1.1 "dry run exits 0" 0 "$LEDGER" --db old.db reinfer --dry-run
expect_eq ledger-reinfer-1.2 "dry run: 12 runs read, 4 change sets and 1 repeat key differ" \
	"infer_version  n_runs  n_changed  n_repeat_keys  written
$(printf '%13s' "$V")      12          4              1  no" "$out"
sql old.db .dump >after.sql
cmp -s before.sql after.sql && ok ledger-reinfer-1.3 "dry run writes nothing" ||
	not_ok ledger-reinfer-1.3 "dry run writes nothing"

expect_code ledger-reinfer-2.1 "reinfer exits 0" 0 "$LEDGER" --db old.db --format json reinfer
expect_eq ledger-reinfer-2.2 "json report: one object, counts n_*, written a boolean" "$V 12 4 1 true" \
	"$(printf '%s' "$out" | jq -r '"\(.infer_version) \(.n_runs) \(.n_changed) \(.n_repeat_keys) \(.written)"')"
expect_eq ledger-reinfer-2.3 "inferred changes as a fresh ingest makes them" "$(inferred fresh.db)" "$(inferred old.db)"
expect_eq ledger-reinfer-2.4 "repeat keys as a fresh ingest makes them" "$(keys fresh.db)" "$(keys old.db)"
expect_eq ledger-reinfer-2.5 "the label run's change" "model.depth 8 9 depth 8 to 9" \
	"$(sql old.db "SELECT var, old, new, span FROM changes WHERE run = $label" | tr '|' ' ')"
expect_eq ledger-reinfer-2.6 "the tampered exact change: as the configs give it again" "exact 9 12" \
	"$(sql old.db "SELECT how, old, new FROM changes WHERE run = $exact" | tr '|' ' ')"
expect_eq ledger-reinfer-2.7 "every inferred row has the current version" "0" \
	"$(sql old.db "SELECT count(*) FROM changes WHERE how = 'inferred' AND infer_version IS NOT $V")"

expect_code ledger-reinfer-3.1 "again exits 0" 0 "$LEDGER" --db old.db --format tsv reinfer
expect_eq ledger-reinfer-3.2 "again: nothing changes" "infer_version	n_runs	n_changed	n_repeat_keys	written
$V	12	0	0	yes" "$out"

expect_code ledger-reinfer-4.1 "unknown argument exits 2" 2 "$LEDGER" --db old.db reinfer --all
expect_match ledger-reinfer-4.2 "... and says which" "$err" "unknown option '--all'"
expect_code ledger-reinfer-4.3 "a missing ledger exits 3" 3 "$LEDGER" --db none.db reinfer

# a ledger from before plain-decimal numbers: its exact changes of reals
# read 6e+02 -> 3e+02 and 0 -> 1e-05; reinfer writes them as ingest does now
cat >reals.jsonl <<'EOT'
{"schema": "runrec/1", "run_id": "re-1", "status": "ok", "description": "baseline", "config": {"sched.warmdown_ratio": 600.0, "optim.weight_decay": 0.0}, "metrics": {"val_bpb": 1.0}}
{"schema": "runrec/1", "run_id": "re-2", "parent": "re-1", "status": "ok", "description": "two knobs", "config": {"sched.warmdown_ratio": 300.0, "optim.weight_decay": 1e-05}, "metrics": {"val_bpb": 0.99}}
EOT
"$LEDGER" --db reals.db ingest reals.jsonl >/dev/null 2>&1 || not_ok ledger-reinfer-5.0 "reals ingest"
exact_of() { sql "$1" "SELECT group_concat(var || ' ' || old || ' ' || new, '|') FROM (SELECT * FROM changes ORDER BY var)"; }
expect_eq ledger-reinfer-5.1 "reals are stored as plain decimals" \
	"optim.weight_decay 0 0.00001|sched.warmdown_ratio 600 300" "$(exact_of reals.db)"
fresh_key=$(sql reals.db "SELECT repeat_key FROM runs WHERE run_id = 're-2'")
sql reals.db "UPDATE changes SET old = '6e+02', new = '3e+02' WHERE var = 'sched.warmdown_ratio';
	UPDATE changes SET new = '1e-05' WHERE var = 'optim.weight_decay';
	UPDATE runs SET repeat_key = 'stale' WHERE run_id = 're-2'"
expect_code ledger-reinfer-5.2 "reinfer of the old texts exits 0" 0 "$LEDGER" --db reals.db reinfer
expect_eq ledger-reinfer-5.3 "... and writes them as an ingest does now" \
	"optim.weight_decay 0 0.00001|sched.warmdown_ratio 600 300" "$(exact_of reals.db)"
expect_eq ledger-reinfer-5.4 "... with the repeat key of a fresh ingest" "$fresh_key" \
	"$(sql reals.db "SELECT repeat_key FROM runs WHERE run_id = 're-2'")"
