# t-trainer.sh — the trainer's command line and training behaviour.
# Test plan: prepare the sample corpus from /usr/share/common-licenses
# (every Debian install); --help and --list-variables (the registry's trainer
# keys and kinds, from `ledger variables`);
# bad keys and values are usage errors; a short fixed-step run prints the
# autoresearch block exactly (keys, order, value column 19, formats) and a
# valid record that ingests; the loss falls on the sample; the same seed and
# config give identical per-step losses and val_bpb twice (2 OpenMP threads:
# the ops are written to be thread-count independent).
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3

"$TRAINER" prepare-data --out sample /usr/share/common-licenses 2>prep.err
expect_eq trainer-1.1 "prepare-data on common-licenses exits 0" 0 $?
TINY="data.path=sample model.depth=2 model.dim=32 model.heads=2 model.seq_len=32
train.device_batch_size=4 train.total_batch_size=128 train.eval_tokens=4096 impl.threads=2 train.device=cpu"

expect_code trainer-2.1 "--help exits 0" 0 "$TRAINER" --help
expect_match trainer-2.2 "--help starts with usage: trainer" "$(head -n 1 stdout.txt)" '^usage: trainer '
expect_code trainer-2.3 "--list-variables exits 0" 0 "$TRAINER" --list-variables
listed=$(printf '%s\n' "$out" | tail -n +2 | awk '{ print $1, $3 }' | sort)
# The registry (common/varreg.c, through `ledger variables`) is the shared
# vocabulary: the trainer lists exactly its trainer keys, impl exactly where
# the registry says impl (math, data and budget are all "math" here).
registry=$("$LEDGER" variables --trainer --format tsv | tail -n +2 |
	awk -F'\t' '{ print $1, ($2 == "impl" ? "impl" : "math") }' | sort)
expect_eq trainer-2.4 "--list-variables lists the registry's trainer keys with their kinds" "$registry" "$listed"
expect_match trainer-2.5 "model.depth default 8, kind math" "$out" '^model\.depth +8 +math '
expect_match trainer-2.6 "impl.recompute kind impl" "$out" '^impl\.recompute +false +impl '
expect_no_match trainer-2.7 "no impl kind outside impl.*" "$(printf '%s\n' "$out" | grep -v '^impl\.')" '^[a-z_.]+ +[^ ]+ +impl '

expect_code trainer-3.1 "unknown key is a usage error" 2 "$TRAINER" model.widht=3
expect_eq trainer-3.2 "unknown key message" \
	"trainer: command line: 'model.widht' is not a trainer variable" "$(head -n 1 stderr.txt)"
expect_eq trainer-3.2h "nothing close to model.widht: where the keys are" "trainer: hint: trainer --list-variables shows them all" "$(sed -n 2p stderr.txt)"
expect_code trainer-3.2d "a typo of a key" 2 "$TRAINER" model.dpeth=3
expect_eq trainer-3.2dh "did you mean the closest key" "trainer: hint: did you mean 'model.depth'?" "$(sed -n 2p stderr.txt)"
expect_code trainer-3.3 "non-numeric value is a usage error" 2 "$TRAINER" model.depth=abc
expect_eq trainer-3.4 "non-numeric value message" \
	"trainer: command line: model.depth 'abc' is not an integer" "$(head -n 1 stderr.txt)"
expect_code trainer-3.5 "heads must divide dim" 2 "$TRAINER" model.dim=30 model.heads=4
printf 'model.depth = 2\nbogus line\n' >bad.conf
expect_code trainer-3.6 "bad config file line is a usage error" 2 "$TRAINER" --config bad.conf
expect_match trainer-3.7 "config file error names file:line" "$err" "^trainer: bad.conf:2: 'bogus line' is not 'key = value'"
expect_code trainer-3.8 "a description that is not UTF-8 is a usage error" 2 "$TRAINER" \
	--description "$(printf 'caf\351')" --record none.jsonl
expect_eq trainer-3.9 "and says which option" "trainer: --description: the value is not valid UTF-8 text" \
	"$(head -n 1 stderr.txt)"
[ ! -e none.jsonl ] && ok trainer-3.10 "no record for a usage error" ||
	not_ok trainer-3.10 "no record for a usage error" "$(cat none.jsonl)"

# shellcheck disable=SC2086
expect_code trainer-4.1 "a 40-step run exits 0" 0 "$TRAINER" $TINY train.steps=40 train.seed=7 \
	--record runs.jsonl --agent tester --description "tiny run"
cp stdout.txt summary.txt
cp stderr.txt progress.txt
expect_eq trainer-4.2 "summary keys in autoresearch order" \
	"--- val_bpb training_seconds total_seconds peak_vram_mb mfu_percent total_tokens_M num_steps num_params_M depth" \
	"$(sed 's/:.*//' summary.txt | tr '\n' ' ' | sed 's/ $//')"
expect_eq trainer-4.3 "nine 'key: number' lines" "9" "$(grep -c '^[A-Za-z_]*: *[0-9][^ ]*$' summary.txt)"
expect_eq trainer-4.4 "every value at column 19" "" \
	"$(awk 'NR>1 { if (substr($0,19,1) == " " || substr($0,18,1) != " ") print }' summary.txt)"
expect_match trainer-4.5 "val_bpb has 6 decimals" "$out" '^val_bpb:          [0-9]+\.[0-9]{6}$'
expect_match trainer-4.6 "num_steps is the step count" "$out" '^num_steps:        40$'
expect_match trainer-4.7 "mfu_percent 0.00 on the CPU" "$out" '^mfu_percent:      0\.00$'
expect_match trainer-4.8 "depth" "$out" '^depth:            2$'
expect_match trainer-4.9 "training_seconds has 1 decimal" "$out" '^training_seconds: [0-9]+\.[0-9]$'
rec=$(tail -n 1 runs.jsonl)
expect_match trainer-4.10 "record has status ok, agent, description" "$rec" \
	'"status":"ok".*"agent":"tester","description":"tiny run"'
expect_match trainer-4.11 "record has data identity" "$rec" '"data":\{"name":"sample","sha256":"[0-9a-f]{64}"\}'
expect_match trainer-4.12 "record resolves train.device to cpu" "$rec" '"train.device":"cpu"'
expect_match trainer-4.15 "record code: commit, dirty flag, diff hash (null without git)" "$rec" \
	'"code":(null|\{"commit":"[0-9a-f]{40}","dirty":(true|false),"diff_sha256":"[0-9a-f]{64}"\})'
expect_match trainer-4.16 "record hardware: host and CPU, no GPU" "$rec" \
	'"hardware":\{"host":"[^"]+","cpu":("[^"]+"|null),"gpu_name":null,"gpu_count":0\}'
expect_match trainer-4.17 "record metrics: 40 steps, tokens/s, train_loss" "$rec" \
	'"total_tokens_M":0\.0051[0-9]*,"num_steps":40,.*"tokens_per_second":[0-9.e+]+,"train_loss":[0-9.]+'
expect_match trainer-4.18 "record budget and status ok without failure" "$rec" '"budget":\{"seconds":300\.0\}.*"failure":null'
expect_code trainer-4.13 "the record ingests" 0 "$LEDGER" ingest --db l.db runs.jsonl
expect_eq trainer-4.14 "ingested with status ok and val_bpb" "ok sample 1" \
	"$(sql l.db "SELECT status, data_name, val_bpb > 0 FROM runs" | tr '|' ' ')"
# The curve (docs/run-record.md): every step of a short run, tokens from
# total_batch_size 128, the loss as printed rounded to 1/4096, the final
# evaluation as its one eval point; the running record has none yet.
expect_eq trainer-4.19 "curve: 40 points, steps 1..40, tokens 128 a step, five columns" "40|1|40|5120|5|40" \
	"$(sql l.db "SELECT json_array_length(record, '\$.curve.step'), json_extract(record, '\$.curve.step[0]'),
		json_extract(record, '\$.curve.step[39]'), json_extract(record, '\$.curve.tokens[39]'),
		(SELECT count(*) FROM json_each(record, '\$.curve') WHERE key != 'eval'),
		(SELECT count(*) FROM json_each(record, '\$.curve.train_loss') WHERE type = 'real') FROM runs")"
expect_eq trainer-4.20 "curve: the last loss is train_loss to 1/4096, the eval point is val_bpb at step 40" "1|40|1|1" \
	"$(sql l.db "SELECT abs(json_extract(record, '\$.curve.train_loss[39]') - json_extract(record, '\$.metrics.train_loss')) <= 1.0 / 8192,
		json_extract(record, '\$.curve.eval.step[0]'),
		json_extract(record, '\$.curve.eval.val_bpb[0]') = json_extract(record, '\$.metrics.val_bpb'),
		json_extract(record, '\$.curve.lr_mult[0]') > 0 FROM runs")"
expect_match trainer-4.21 "the running record's curve is null" "$(head -n 1 runs.jsonl)" '"status":"running".*"curve":null'
# a budget far above the steps' time: under a sanitizer on a loaded machine
# 1500 steps can take past the default 300 s + grace, and a timeout is not
# what this checks
expect_code trainer-4.22 "a 1500-step run exits 0" 0 "$TRAINER" $TINY train.steps=1500 train.time_budget_s=3600 train.seed=7 --record long.jsonl
expect_code trainer-4.23 "and ingests" 0 "$LEDGER" ingest --db long.db long.jsonl
expect_eq trainer-4.24 "1500 steps down-sample to 376 points: every 4th step and the last" "376|1|5|1497|1500" \
	"$(sql long.db "SELECT json_array_length(record, '\$.curve.step'), json_extract(record, '\$.curve.step[0]'),
		json_extract(record, '\$.curve.step[1]'), json_extract(record, '\$.curve.step[374]'),
		json_extract(record, '\$.curve.step[375]') FROM runs")"

# loss falls: step 1 starts near ln 256 = 5.545; 40 steps on the sample
first=$(grep -m1 '^step *1 |' progress.txt | sed 's/.*loss \([0-9.]*\).*/\1/')
last=$(grep '^step *40 |' progress.txt | sed 's/.*loss \([0-9.]*\).*/\1/')
expect_eq trainer-5.1 "first loss is ln 256 within 0.05" 1 "$(awk -v a="$first" 'BEGIN{print (a > 5.49 && a < 5.60)}')"
expect_eq trainer-5.2 "loss falls by more than 1.5 nats in 40 steps" 1 \
	"$(awk -v a="$first" -v b="$last" 'BEGIN{print (a - b > 1.5)}')"
bpb=$(sed -n 's/^val_bpb: *//p' summary.txt)
expect_eq trainer-5.3 "val_bpb below 6 (8 = uniform bytes)" 1 "$(awk -v a="$bpb" 'BEGIN{print (a < 6)}')"

# determinism: same seed and config, twice
# shellcheck disable=SC2086
"$TRAINER" $TINY train.steps=25 train.seed=3 --no-record >a.out 2>a.err
# shellcheck disable=SC2086
"$TRAINER" $TINY train.steps=25 train.seed=3 --no-record >b.out 2>b.err
expect_eq trainer-6.1 "same per-step losses twice" "$(grep -o 'loss [0-9.]*' a.err)" "$(grep -o 'loss [0-9.]*' b.err)"
expect_eq trainer-6.2 "same val_bpb twice" "$(grep val_bpb a.out)" "$(grep val_bpb b.out)"
# shellcheck disable=SC2086
"$TRAINER" $TINY train.steps=25 train.seed=4 --no-record >c.out 2>c.err
expect_no_match trainer-6.3 "another seed gives another val_bpb" "$(grep val_bpb c.out)" "^$(grep val_bpb a.out)\$"
# shellcheck disable=SC2086
"$TRAINER" $TINY train.steps=25 train.seed=3 impl.threads=1 --no-record >d.out 2>d.err
expect_eq trainer-6.4 "1 thread gives the same val_bpb as 2" "$(grep val_bpb a.out)" "$(grep val_bpb d.out)"
# shellcheck disable=SC2086
"$TRAINER" $TINY train.steps=25 train.seed=3 optim.matrix_optimizer=adamw optim.matrix_lr=0.003 \
	sched.warmdown_shape=sqrt --no-record >e.out 2>e.err
expect_match trainer-6.5 "AdamW for the matrices also trains" "$(cat e.out)" '^val_bpb: +[0-7]\.'
# A setting that would change nothing in its configuration is a usage
# error, with no record: recorded, it would be a change that changed nothing
for args in "optim.matrix_optimizer=adamw optim.muon_momentum=0.9|optim.muon_momentum 0.9 is Muon's" \
	"sched.warmdown_ratio=0 sched.final_lr_frac=0.1|sched.final_lr_frac 0.1 is where the warmdown ends" \
	"sched.warmdown_ratio=0 sched.warmdown_shape=sqrt|sched.warmdown_shape sqrt shapes the warmdown" \
	"optim.scalar_lr=0.3|'optim.scalar_lr' is not a trainer variable: the variable registry knows it"; do
	n=$((${n:-0} + 1))
	rm -f dead.jsonl
	# shellcheck disable=SC2086
	expect_code "trainer-6.6.$n" "${args%%|*}: refused" 2 "$TRAINER" $TINY ${args%%|*} train.steps=1 --record dead.jsonl
	expect_match "trainer-6.6.$n.msg" "saying why" "$err" "${args#*|}"
	expect_eq "trainer-6.6.$n.none" "and no record" "no" "$([ -e dead.jsonl ] && echo yes || echo no)"
done
# the same keys at their defaults are fine with adamw and no warmdown
# shellcheck disable=SC2086
expect_code trainer-6.7 "adamw and no warmdown, the other keys at their defaults" 0 "$TRAINER" $TINY \
	optim.matrix_optimizer=adamw optim.muon_momentum=0.95 sched.warmdown_ratio=0 train.steps=1 --no-record
