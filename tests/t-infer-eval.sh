# t-infer-eval.sh — the description-inference harness (build/infer-eval,
# `make infer-eval`) counts what it should: the scorer on cases whose
# inferred side is given (--given: each rule of tests/infer/eval.c once),
# the real grammar on two plain descriptions, per-split totals and
# percentages, heldout lines never printed without --show-heldout, files
# with a STATUS column replayed along ingest's parent chain, and a
# malformed line refused (exit 2) without quoting it; --heldout-total
# prints the heldout total without a row per heldout file; --loso takes
# away, per train source, the spellings only that source attests;
# --by-kind counts inferred changes by how their name was found.
. "$ROOT/tests/lib.sh"
EVAL="$BUILD/infer-eval"
TAB=$(printf '\t')

# row SPLIT SOURCE: "cases correct partly wrong missed" from the summary
row() { printf '%s\n' "$out" | awk -v s="$1" -v f="$2" '$1 == s && $2 == f { print $3, $4, $5, $6, $7 }'; }

mkdir given
cat >given/a.tsv <<EOT
# source: test
# split: train
no change${TAB}-${TAB}-
same${TAB}model.depth 8 -> 9${TAB}model.depth 8 -> 9
within 0.5%${TAB}optim.matrix_lr ? -> 0.04${TAB}optim.matrix_lr ? -> 0.0401
beyond 0.5%${TAB}optim.matrix_lr ? -> 0.04${TAB}optim.matrix_lr ? -> 0.041
desc names normalised${TAB}desc.x0_lambda ? -> 0.1${TAB}desc.X0-Lambda ? -> 0.1
strings any case${TAB}model.window_pattern ? -> SSSL${TAB}model.window_pattern ? -> sssl
tuple spaces${TAB}optim.adam_betas ? -> (0.8, 0.95)${TAB}optim.adam_betas ? -> (0.80,0.95)
tuple differs${TAB}optim.adam_betas ? -> (0.8, 0.95)${TAB}optim.adam_betas ? -> (0.8, 0.9)
made-up old side${TAB}model.depth ? -> 9${TAB}model.depth 8 -> 9
unstated old side${TAB}model.depth 8 -> 9${TAB}model.depth ? -> 9
extra variable${TAB}model.depth ? -> 9${TAB}model.depth ? -> 9; model.dim ? -> 512
nothing inferred${TAB}model.depth ? -> 9${TAB}-
one of two${TAB}model.depth ? -> 9; model.dim ? -> 512${TAB}model.dim ? -> 512
change where none${TAB}-${TAB}train.seed ? -> 2
EOT
cat >given/b.tsv <<EOT
# source: test
# split: heldout
SECRET-HELDOUT-LINE${TAB}model.depth ? -> 9${TAB}model.depth ? -> 10
heldout right${TAB}-${TAB}-
EOT

expect_code infer-eval-1.1 "the scorer runs on a given corpus" 0 "$EVAL" --given given
expect_eq infer-eval-1.2 "train counts: cases correct partly wrong missed" "14 6 2 5 1" "$(row train a)"
expect_eq infer-eval-1.3 "train total" "14 6 2 5 1" "$(row train all)"
expect_match infer-eval-1.4 "train percentages" "$out" '^train +all .* 42\.9% correct +35\.7% wrong$'
expect_eq infer-eval-1.5 "heldout counts" "2 1 0 1 0" "$(row heldout b)"
expect_match infer-eval-1.6 "a train failure is listed with its verdict" "$out" '^wrong +given/a\.tsv:6$'
expect_match infer-eval-1.7 "... with what was expected and inferred" "$out" \
	'^    inferred: model\.depth \? -> 9; model\.dim \? -> 512$'
expect_no_match infer-eval-1.8 "correct cases are not listed" "$out" 'a\.tsv:(4|5|7|8|9)$'
expect_no_match infer-eval-1.9 "heldout lines are not printed" "$out" 'SECRET|b\.tsv'
expect_code infer-eval-1.9b "--heldout-total runs" 0 "$EVAL" --given --heldout-total given
expect_eq infer-eval-1.9c "... with the heldout total" "2 1 0 1 0" "$(row heldout all)"
expect_eq infer-eval-1.9d "... and no row per heldout file" "" "$(row heldout b)"
expect_eq infer-eval-1.9e "... but one per train file" "14 6 2 5 1" "$(row train a)"
expect_code infer-eval-1.10 "--show-heldout runs" 0 "$EVAL" --given --show-heldout given
expect_match infer-eval-1.11 "--show-heldout lists heldout failures" "$out" 'SECRET-HELDOUT-LINE'

# a file with statuses is replayed as ingest reads it: the first row is
# the baseline (its stated values are state, it records nothing), a row's
# parent is the last kept one, a value the parent had is no change; a
# skipped kept row moves the chain, a '?' row does not; a crashed or
# discarded row becomes the parent only as the first row
mkdir status
cat >status/e.tsv <<EOT
# source: test
# split: train
baseline${TAB}baseline: depth=4 dim=256${TAB}-
keep${TAB}depth=8${TAB}model.depth ? -> 8
discard${TAB}depth=8, dim=512${TAB}model.dim ? -> 512
crash${TAB}dim=256, depth=12${TAB}model.depth ? -> 12
# skipped: 5 keep
discard${TAB}depth=8 dim=256${TAB}-
?${TAB}depth=6${TAB}model.depth ? -> 6
discard${TAB}depth=6${TAB}model.depth ? -> 6
EOT
expect_code infer-eval-1.12 "a file with statuses is scored" 0 "$EVAL" status
expect_eq infer-eval-1.13 "... every row against its parent's state" "7 7 0 0 0" "$(row train e)"
printf '# source: test\n# split: train\ncrash\tdepth=8\tmodel.depth ? -> 8\n' >status/f.tsv
printf 'keep\tdepth=9\tmodel.depth ? -> 9\ndiscard\tdepth=9, dim=512\tmodel.dim ? -> 512\n' >>status/f.tsv
expect_code infer-eval-1.14 "a file whose first row crashed" 0 "$EVAL" status
expect_eq infer-eval-1.15 "... has that row as its root, as ingest: it records nothing, the rest against it" \
	"3 2 0 0 1" "$(row train f)"
printf '# source: test\n# split: train\nkeep\tdepth=8\t-\ndepth 8 to 9\t-\n' >status/g.tsv
expect_code infer-eval-1.16 "one file in two layouts exits 2" 2 "$EVAL" status

# the grammar itself, on descriptions any version reads the same way
mkdir real
printf '# source: test\n# split: train\ndepth 8 to 9\tmodel.depth 8 -> 9\nbaseline\t-\n' >real/c.tsv
expect_code infer-eval-2.1 "the grammar is scored" 0 "$EVAL" real
expect_eq infer-eval-2.2 "both read right" "2 2 0 0 0" "$(row train c)"

# --loso: a spelling only the source being scored attests is taken away
# ("VE" from h alone); one another source attests too stays
mkdir loso
printf '# source: test\n# split: train\nremove VE\tdesc.value_embeddings ? -> false\ndepth 8 to 9\tmodel.depth 8 -> 9\n' >loso/h.tsv
printf '# source: test\n# split: train\ndepth 9 to 10\tmodel.depth 9 -> 10\n' >loso/i.tsv
printf '# source: test\n# split: heldout\nSECRET-LOSO no VE\tdesc.value_embeddings ? -> false\n' >loso/k.tsv
expect_code infer-eval-4.1 "--loso runs" 0 "$EVAL" --loso loso
expect_eq infer-eval-4.2 "the train total is as without it" "3 3 0 0 0" "$(row train all)"
expect_eq infer-eval-4.3 "left out, h loses the spelling only it attests (a heldout file attests nothing)" \
	"3 2 0 0 1" "$(row loso all)"
expect_no_match infer-eval-4.4 "... and no heldout line is printed" "$out" SECRET
printf '# source: test\n# split: train\nno VE\tdesc.value_embeddings ? -> false\n' >loso/j.tsv
expect_code infer-eval-4.5 "--loso with a second source attesting it" 0 "$EVAL" --loso loso
expect_eq infer-eval-4.6 "... keeps it for both" "4 4 0 0 0" "$(row loso all)"
expect_code infer-eval-4.7 "--by-kind runs" 0 "$EVAL" --by-kind loso
expect_match infer-eval-4.8 "... counting lexicon names" "$out" '^desc lexicon +2 +2 +0$'

# a malformed line: refused, located, and not quoted (it may be heldout)
mkdir bad
printf '# source: test\n# split: heldout\nSECRET-MALFORMED\tmodel.depth nine\n' >bad/d.tsv
expect_code infer-eval-3.1 "a malformed expectation exits 2" 2 "$EVAL" bad
expect_match infer-eval-3.2 "... naming file:line" "$err" 'bad/d\.tsv:3'
expect_no_match infer-eval-3.3 "... without its text" "$out$err" SECRET
printf '# source: test\ndepth 8 to 9\tmodel.depth 8 -> 9\n' >bad/d.tsv
expect_code infer-eval-3.4 "a file without a split header exits 2" 2 "$EVAL" bad
expect_code infer-eval-3.5 "a missing directory exits 2" 2 "$EVAL" nowhere

# the options are documented where a user asks
expect_code infer-eval-5.1 "--help exits 0" 0 "$EVAL" --help
help=$out n=0
for o in --heldout-total --show-heldout --given --by-kind --list-coined --keep-coined --loso; do
	n=$((n + 1))
	expect_match infer-eval-5.2.$n "... and explains $o" "$help" "^  $o +[a-z(]"
done
expect_code infer-eval-5.3 "an unknown option exits 2" 2 "$EVAL" --bogus
expect_match infer-eval-5.4 "... naming it" "$err" "unknown option '--bogus'"
expect_match infer-eval-5.5 "... and where the options are listed" "$err" 'infer-eval --help'
