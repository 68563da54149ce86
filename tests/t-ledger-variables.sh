# t-ledger-variables.sh — `ledger variables`, the variable registry as a
# listing: needs no ledger; rows and columns as written by hand below from
# autoresearch's train.py and our trainer; every format carries the same
# rows; --alias resolves the names people write (exit 1 for none) and every
# listed alias resolves to its own row; docs/variables.md is the command's
# output; the bench generator (bench/gen_runrec.c) writes registry keys
# only, with registry values, the same bytes for the same seed.
. "$ROOT/tests/lib.sh"

expect_code ledger-variables-1.1 "variables exits 0 without a ledger" 0 "$LEDGER" variables --format tsv
tsv=$out
[ ! -e ledger.db ] && ok ledger-variables-1.2 "and creates none" ||
	not_ok ledger-variables-1.2 "and creates none" "$(ls -l)"
expect_eq ledger-variables-1.3 "columns" "key	kind	type	choices	devices	constant	aliases	help" \
	"$(printf '%s\n' "$tsv" | head -n 1)"
row() { printf '%s\n' "$tsv" | awk -F'\t' -v k="$1" '$1 == k { print $2 "|" $3 "|" $4 "|" $5 "|" $6 }'; }
expect_eq ledger-variables-1.4 "model.depth: math int, both devices, DEPTH" "math|int||cpu|cuda|DEPTH" "$(row model.depth)"
expect_eq ledger-variables-1.5 "optim.adam_betas: a tuple our trainer lacks" "math|tuple|||ADAM_BETAS" \
	"$(row optim.adam_betas)"
expect_eq ledger-variables-1.6 "train.time_budget_s: budget, TIME_BUDGET" "budget|number||cpu|cuda|TIME_BUDGET" \
	"$(row train.time_budget_s)"
expect_match ledger-variables-1.7 "impl.attention: impl choice, naive on both paths" \
	"$(printf '%s\n' "$tsv" | awk -F'\t' '$1 == "impl.attention" { print $2, $3, $5 }')" \
	'^impl choice ([^ ]*;)?naive=cpu\|cuda(;|$)'
expect_match ledger-variables-1.8 "aliases column lists autoresearch's name, normalised" \
	"$(printf '%s\n' "$tsv" | awk -F'\t' '$1 == "optim.matrix_lr" { print $7 }')" '(^|, )matrix lr(,|$)'
keys=$(printf '%s\n' "$tsv" | tail -n +2 | cut -f1)
n=$(printf '%s\n' "$keys" | wc -l)
expect_eq ledger-variables-1.9 "keys are unique" "$n" "$(printf '%s\n' "$keys" | sort -u | wc -l)"

# -- formats: the same rows
"$LEDGER" variables --format json >v.json 2>/dev/null
expect_eq ledger-variables-2.1 "json: one object per key, in order" "$keys" "$(jq -r '.[].key' v.json)"
expect_eq ledger-variables-2.2 "json: a variable our trainer lacks has devices null" "null" \
	"$(jq -r '.[] | select(.key == "model.window_pattern") | .devices' v.json)"
expect_eq ledger-variables-2.3 "md: header, rule and one line per key" "$((n + 2))" \
	"$("$LEDGER" variables --format md | grep -c '^| ')"
expect_eq ledger-variables-2.4 "csv: header and one record per key" "$((n + 1))" \
	"$("$LEDGER" variables --format csv | wc -l)"
expect_code ledger-variables-2.5 "--kind impl" 0 "$LEDGER" variables --kind impl --format tsv
expect_eq ledger-variables-2.6 "--kind impl: the impl rows, only those" \
	"$(printf '%s\n' "$tsv" | awk -F'\t' 'NR > 1 && $2 == "impl" { print $1 }')" "$(printf '%s\n' "$out" | tail -n +2 | cut -f1)"
expect_code ledger-variables-2.7 "--trainer" 0 "$LEDGER" variables --trainer --format tsv
expect_eq ledger-variables-2.8 "--trainer: the rows with devices, only those" \
	"$(printf '%s\n' "$tsv" | awk -F'\t' 'NR > 1 && $5 != "" { print $1 }')" "$(printf '%s\n' "$out" | tail -n +2 | cut -f1)"
expect_code ledger-variables-2.9 "--kind must be a kind" 2 "$LEDGER" variables --kind fast
expect_code ledger-variables-2.10 "unknown option is a usage error" 2 "$LEDGER" variables --frob

# -- --alias
expect_code ledger-variables-3.1 "--alias MATRIX_LR exits 0" 0 "$LEDGER" variables --alias MATRIX_LR --format tsv
expect_eq ledger-variables-3.2 "MATRIX_LR is optim.matrix_lr" "MATRIX_LR	optim.matrix_lr		math	number" \
	"$(printf '%s\n' "$out" | tail -n +2)"
expect_code ledger-variables-3.3 "--alias 'flash attention'" 0 "$LEDGER" variables --alias "Flash-Attention" --format tsv
expect_eq ledger-variables-3.4 "implies impl.attention = flash" "Flash-Attention	impl.attention	flash	impl	choice" \
	"$(printf '%s\n' "$out" | tail -n +2)"
expect_code ledger-variables-3.5 "a key as written resolves to itself" 0 "$LEDGER" variables --alias Optim.Beta2 --format tsv
expect_eq ledger-variables-3.6 "Optim.Beta2 is optim.beta2" "optim.beta2" "$(printf '%s\n' "$out" | tail -n +2 | cut -f2)"
expect_code ledger-variables-3.7 "an unknown name exits 1" 1 "$LEDGER" variables --alias "value embeddings"
expect_eq ledger-variables-3.8 "and says so, naming the desc.* key it would get" \
	"ledger: variables: 'value embeddings' names no variable
ledger: hint: a change to it is recorded as desc.value_embeddings; 'ledger variables' lists the names" "$err"
expect_eq ledger-variables-3.9 "nothing on stdout" "" "$out"
expect_code ledger-variables-3.9d "--alias with a typo of a key" 1 "$LEDGER" variables --alias model.dpeth
expect_eq ledger-variables-3.9e "did you mean the key, one hint" "ledger: variables: 'model.dpeth' names no variable
ledger: hint: did you mean 'model.depth'? ('ledger variables' lists the names)" "$err"
expect_code ledger-variables-3.9f "--alias with a typo of an alias" 1 "$LEDGER" variables --alias 'Matrx LR'
expect_eq ledger-variables-3.9g "did you mean the alias, normalised" "ledger: hint: did you mean 'matrix lr'? ('ledger variables' lists the names)" "$(printf '%s\n' "$err" | sed -n 2p)"
expect_code ledger-variables-3.10 "--alias needs a value" 2 "$LEDGER" variables --alias
# autoresearch's train.py / prepare.py constants, by hand
bad=
for pair in DEPTH=model.depth ASPECT_RATIO=model.aspect_ratio HEAD_DIM=model.head_dim \
	WINDOW_PATTERN=model.window_pattern TOTAL_BATCH_SIZE=train.total_batch_size \
	DEVICE_BATCH_SIZE=train.device_batch_size MATRIX_LR=optim.matrix_lr EMBEDDING_LR=optim.embedding_lr \
	UNEMBEDDING_LR=optim.unembedding_lr SCALAR_LR=optim.scalar_lr WEIGHT_DECAY=optim.weight_decay \
	ADAM_BETAS=optim.adam_betas WARMUP_RATIO=sched.warmup_ratio WARMDOWN_RATIO=sched.warmdown_ratio \
	FINAL_LR_FRAC=sched.final_lr_frac TIME_BUDGET=train.time_budget_s MAX_SEQ_LEN=model.seq_len \
	N_EMBD=model.dim; do
	got=$("$LEDGER" variables --alias "${pair%%=*}" --format tsv 2>/dev/null | tail -n +2 | cut -f2)
	[ "$got" = "${pair#*=}" ] || bad="$bad ${pair%%=*}->${got:-nothing}"
done
expect_eq ledger-variables-3.11 "autoresearch's constants resolve to their keys" "" "$bad"
# every alias the listing shows resolves to the row that shows it
bad= checked=0
printf '%s\n' "$tsv" | tail -n +2 | cut -f1,7 >aliases.tsv
while IFS='	' read -r key names; do
	printf '%s\n' "$names" | tr ',' '\n' | sed 's/^ //; s/ (=.*)$//' | grep . >names.txt
	while read -r name; do
		got=$("$LEDGER" variables --alias "$name" --format tsv 2>/dev/null | tail -n +2 | cut -f2)
		[ "$got" = "$key" ] || bad="$bad '$name'->${got:-nothing}"
		checked=$((checked + 1))
	done <names.txt
done <aliases.tsv
expect_eq ledger-variables-3.12 "every listed alias resolves to its own key ($checked checked)" "" "$bad"
[ "$checked" -gt 0 ] && ok ledger-variables-3.13 "the listing has aliases to check" ||
	not_ok ledger-variables-3.13 "the listing has aliases to check" "aliases column empty"

# -- docs/variables.md is generated
sh "$ROOT/scripts/variables-doc.sh" "$LEDGER" >variables.md 2>variables.err
expect_eq ledger-variables-4.1 "docs/variables.md matches 'sh scripts/variables-doc.sh' (regenerate it)" "" \
	"$(diff "$ROOT/docs/variables.md" variables.md)"

# -- the bench generator writes registry keys and values
if ${CC:-cc} -std=c11 -D_GNU_SOURCE -O2 -I"$ROOT/common" -o gen "$ROOT/bench/gen_runrec.c" \
	"$ROOT/common/varreg.c" 2>cc.err; then
	ok ledger-variables-5.1 "gen_runrec builds against the registry"
	./gen 400 7 a.jsonl a.tsv && ./gen 400 7 b.jsonl b.tsv
	cmp -s a.jsonl b.jsonl && cmp -s a.tsv b.tsv && ok ledger-variables-5.2 "same seed, same bytes" ||
		not_ok ledger-variables-5.2 "same seed, same bytes" "$(cmp a.jsonl b.jsonl; cmp a.tsv b.tsv)"
	./gen 400 8 c.jsonl c.tsv
	cmp -s a.jsonl c.jsonl && not_ok ledger-variables-5.3 "another seed, other runs" "seeds 7 and 8 gave the same" ||
		ok ledger-variables-5.3 "another seed, other runs"
	written=$(jq -r '.config | keys[]' a.jsonl | sort -u)
	expect_eq ledger-variables-5.4 "every config key it writes is a registry key" "" \
		"$(printf '%s\n' "$written" | grep -vxF -f "$(printf '%s\n' "$keys" >keys.txt; echo keys.txt)")"
	# values of choice keys are the registry's choices, booleans are booleans
	bad=$(jq -r --slurpfile v v.json '.config | to_entries[] | . as $e
		| ($v[0][] | select(.key == $e.key)) as $d
		| select(($d.type == "choice" and (($d.choices | split("|")) | index($e.value)) == null)
			or ($d.type == "bool" and ($e.value | type) != "boolean")
			or (($d.type == "int" or $d.type == "number") and ($e.value | type) != "number"))
		| "\($e.key)=\($e.value)"' a.jsonl | sort -u)
	expect_eq ledger-variables-5.5 "values have the registry's types and choices" "" "$bad"
	expect_code ledger-variables-5.6 "its runs ingest" 0 "$LEDGER" --db g.db ingest a.jsonl
else
	not_ok ledger-variables-5.1 "gen_runrec builds against the registry" "$(cat cc.err)"
fi
