# t-ledger-ingest-repo.sh — `ledger ingest results.tsv --repo DIR`: changes
# from the commits' diff instead of the descriptions.
# Test plan: a git repository built here with the git CLI, shaped like an
# autoresearch session: a baseline commit; experiments each their own
# commit (DEPTH 8 -> 10 kept; MATRIX_LR 0.04 -> 0.05 discarded and
# `git reset --hard` away, then the same change again from another commit,
# also reset away; ADAM_BETAS as a tuple over four lines kept; a crash
# changing WINDOW_PATTERN; a discarded change of GPT.forward's body; TOTAL_BATCH_SIZE
# and an unknown constant kept) and a row whose commit was never in the
# repository; results.tsv names them by 7-digit prefixes, with descriptions
# that do not say what the code did. Checks: the stored changes (var, old,
# new, how, span) row by row; every row with a parent and a commit in the
# repository has code changes; the missing one falls back to its
# description with one warning naming the file, the count and the commit;
# the two MATRIX_LR tries are one repeat group; the reset-away commits are
# on no branch; re-ingest adds nothing; without --repo the same rows get
# inferred changes; --script names the training script; a config diff
# still wins over the code; bad --repo / --script are usage errors.
. "$ROOT/tests/lib.sh"
export GIT_CONFIG_NOSYSTEM=1 HOME="$PWD" GIT_AUTHOR_NAME=agent GIT_AUTHOR_EMAIL=agent@example.com \
	GIT_COMMITTER_NAME=agent GIT_COMMITTER_EMAIL=agent@example.com
DB=l.db
# a hunk's value without its " #hash" (checked apart, 2.3)
NOHASH="CASE WHEN instr(new, ' #') THEN substr(new, 1, instr(new, ' #') - 1) ELSE new END"

mkdir repo
cd repo
git init -q
git config gc.auto 0
cat >train.py <<'EOF'
"""Pretraining, autoresearch style. Edit the constants below."""
import torch
from prepare import MAX_SEQ_LEN, TIME_BUDGET

# Model architecture
ASPECT_RATIO = 64       # model_dim = depth * ASPECT_RATIO
HEAD_DIM = 128          # target head dimension
WINDOW_PATTERN = "SSSL" # L = full context, S = half

# Optimization
TOTAL_BATCH_SIZE = 2**19 # ~524K tokens a step
MATRIX_LR = 0.04        # Muon
ADAM_BETAS = (0.8, 0.95)
WARMDOWN_RATIO = 0.5

# Model size
DEPTH = 8               # transformer layers


class GPT(torch.nn.Module):
    def __init__(self, depth):
        super().__init__()
        self.depth = depth

    def forward(self, x):
        x = torch.relu(x).square()
        return x


model = GPT(DEPTH)
step = 0
EOF
printf 'MAX_SEQ_LEN = 2048\nTIME_BUDGET = 300\n' >prepare.py
printf '# notes\n' >program.md
printf 'commit\tval_bpb\n' >results.tsv
git add train.py prepare.py program.md results.tsv
commit() { git commit -q -am "$1" && git rev-parse --short=7 HEAD; }
git commit -q -m baseline
B=$(git rev-parse --short=7 HEAD)
sed -i 's/^DEPTH = 8 /DEPTH = 10/' train.py
E1=$(commit "depth 10")
sed -i 's/^MATRIX_LR = 0.04 /MATRIX_LR = 0.05 /' train.py
E2=$(commit "matrix lr 0.05")
git reset -q --hard "$E1"
sed -i 's/^MATRIX_LR = 0.04 /MATRIX_LR = 0.05 /' train.py
E3=$(commit "matrix lr 0.05 again")
git reset -q --hard "$E1"
sed -i 's/^ADAM_BETAS = (0.8, 0.95)$/ADAM_BETAS = (\n    0.9,   # beta1\n    0.95,\n)/' train.py
E4=$(commit "betas")
sed -i 's/^WINDOW_PATTERN = "SSSL"/WINDOW_PATTERN = "SSLL"/' train.py
E5=$(commit "window")
git reset -q --hard "$E4"
sed -i 's/torch.relu(x).square()/torch.nn.functional.gelu(x)/' train.py
E6=$(commit "gelu")
git reset -q --hard "$E4"
sed -i 's/^TOTAL_BATCH_SIZE = 2\*\*19/TOTAL_BATCH_SIZE = 2**18/; s/^step = 0$/EVAL_EVERY = 250\nstep = 0/' train.py
printf 'try a smaller batch next\n' >>program.md        # notes and results change nothing
printf 'abc1234\t0.99\n' >>results.tsv
E7=$(commit "batch")
cd ..

tab=$(printf '\t')
{
	echo "commit${tab}val_bpb${tab}memory_gb${tab}status${tab}description"
	echo "$B${tab}0.997900${tab}44.0${tab}keep${tab}baseline"
	echo "$E1${tab}0.993000${tab}46.0${tab}keep${tab}exp1 go deeper"
	echo "$E2${tab}0.995000${tab}44.0${tab}discard${tab}exp2 hotter muon"
	echo "$E3${tab}0.994500${tab}44.0${tab}discard${tab}exp3 rerun of exp2"
	echo "$E4${tab}0.991000${tab}46.0${tab}keep${tab}exp4 betas"
	echo "$E5${tab}0.000000${tab}0.0${tab}crash${tab}exp5 windows"
	echo "dead123${tab}0.992000${tab}46.0${tab}discard${tab}depth 10 to 12"
	echo "$E6${tab}0.992500${tab}46.0${tab}discard${tab}exp7 activation"
	echo "$E7${tab}0.990000${tab}40.0${tab}keep${tab}exp8 smaller batch"
} >results.tsv
# rows are given times, so the only warning left is the one under test
T=2026-03-16T00:00:00Z
"$LEDGER" --db $DB init >/dev/null

expect_code ledger-ingest-repo-1.1 "ingest with --repo exits 0" 0 "$LEDGER" --db $DB ingest results.tsv --started-at "$T" --repo repo
expect_eq ledger-ingest-repo-1.2 "summary" "results.tsv: 9 new, 0 already present, 0 quarantined (results.tsv)" "$out"
expect_eq ledger-ingest-repo-1.3 "one warning for the missing commit, naming the file, the count and the commit" \
"ledger: warning: ingest: results.tsv: 1 run was not diffed in the repository repo, so its changes are inferred from the description (e.g. commit 'dead123' is not in the repository)
ledger: hint: a commit is found by hash or prefix even after git reset, until git gc prunes it; give a longer prefix where one is ambiguous" "$err"
expect_eq ledger-ingest-repo-1.4 "the reset-away commits are on no branch" "" \
	"$(cd repo && for c in $E2 $E3 $E5 $E6; do git branch -a --contains "$c"; done)"

expect_eq ledger-ingest-repo-2.1 "changes row by row: registry names, code.NAME, a hunk by def, the fallback" \
"2|model.depth|8|10|code
3|optim.matrix_lr|0.04|0.05|code
4|optim.matrix_lr|0.04|0.05|code
5|optim.adam_betas|(0.8, 0.95)|(0.9, 0.95)|code
6|model.window_pattern|SSSL|SSLL|code
7|model.depth|10|12|inferred
8|code.train.py:GPT.forward||+1 -1 lines|code
9|code.EVAL_EVERY||250|code
9|train.total_batch_size|524288|262144|code" \
	"$(sql $DB "SELECT run, var, old, $NOHASH, how FROM changes ORDER BY run, var")"
expect_eq ledger-ingest-repo-2.2 "spans: the assignment as written for a constant, the hunk header for a hunk" \
"2|train.py:17: DEPTH = 10
5|train.py:13: ADAM_BETAS = (0.9, 0.95,)
8|@@ -29 +29 @@ class GPT(torch.nn.Module):
9|train.py:34: EVAL_EVERY = 250" \
	"$(sql $DB "SELECT run, span FROM changes WHERE how = 'code' AND var IN ('model.depth', 'optim.adam_betas', 'code.train.py:GPT.forward', 'code.EVAL_EVERY') ORDER BY run")"
expect_match ledger-ingest-repo-2.3 "a hunk's value counts its lines and names its content" \
	"$(sql $DB "SELECT new FROM changes WHERE run = 8")" '^\+1 -1 lines #[0-9a-f]{8}$'
expect_eq ledger-ingest-repo-2.4 "every row with a parent and a commit in the repository has code changes" "0" \
	"$(sql $DB "SELECT count(*) FROM runs r WHERE parent IS NOT NULL AND code_commit <> 'dead123' AND NOT EXISTS (SELECT 1 FROM changes c WHERE c.run = r.id AND c.how = 'code')")"
expect_eq ledger-ingest-repo-2.5 "code changes have no inference version" "0" \
	"$(sql $DB "SELECT count(*) FROM changes WHERE how = 'code' AND infer_version IS NOT NULL")"
expect_eq ledger-ingest-repo-2.6 "the two MATRIX_LR tries from the same parent are one repeat group" "3,4" \
	"$(sql $DB "SELECT group_concat(id) FROM runs WHERE repeat_key = (SELECT repeat_key FROM runs WHERE id = 3)")"
expect_eq ledger-ingest-repo-2.7 "the crash row is diffed against the last kept row" "$E4" \
	"$(sql $DB "SELECT p.code_commit FROM runs r JOIN runs p ON p.run_id = r.parent WHERE r.id = 6")"

expect_code ledger-ingest-repo-3.1 "re-ingest with --repo exits 0" 0 "$LEDGER" --db $DB ingest results.tsv --started-at "$T" --repo repo
expect_eq ledger-ingest-repo-3.2 "re-ingest adds nothing" "results.tsv: 0 new, 9 already present, 0 quarantined (results.tsv)" "$out"
expect_eq ledger-ingest-repo-3.3 "nor changes" "9" "$(sql $DB "SELECT count(*) FROM changes")"

"$LEDGER" --db plain.db init >/dev/null
expect_code ledger-ingest-repo-4.1 "without --repo" 0 "$LEDGER" --db plain.db ingest results.tsv --started-at "$T"
expect_eq ledger-ingest-repo-4.2 "the descriptions alone say little (a smaller batch: changed, value unsaid)" \
	"7|model.depth|10|12|inferred
9|train.total_batch_size|||inferred" \
	"$(sql plain.db "SELECT run, var, old, new, how FROM changes ORDER BY run, var")"

"$LEDGER" --db script.db init >/dev/null
expect_code ledger-ingest-repo-5.1 "--script naming another file" 0 "$LEDGER" --db script.db ingest results.tsv --started-at "$T" --repo repo --script prepare.py
expect_eq ledger-ingest-repo-5.2 "then train.py's changes are hunks of train.py" "2|code.train.py|+1 -1 lines" \
	"$(sql script.db "SELECT run, var, $NOHASH FROM changes WHERE run = 2")"
"$LEDGER" --db dot.db init >/dev/null
expect_code ledger-ingest-repo-5.3 "--script ./train.py" 0 "$LEDGER" --db dot.db ingest results.tsv --started-at "$T" --repo repo --script ./train.py
expect_eq ledger-ingest-repo-5.4 "is train.py in the tree" "2|model.depth|8|10" \
	"$(sql dot.db "SELECT run, var, old, new FROM changes WHERE run = 2")"

# a config diff is exact and wins over the code
cat >runs.jsonl <<EOF
{"schema":"runrec/1","run_id":"a","status":"ok","code":{"commit":"$B"},"config":{"model.depth":8}}
{"schema":"runrec/1","run_id":"b","parent":"a","status":"ok","code":{"commit":"$E1"},"config":{"model.depth":9}}
{"schema":"runrec/1","run_id":"c","parent":"b","status":"ok","code":{"commit":"$E4"},"description":"betas"}
EOF
"$LEDGER" --db cfg.db init >/dev/null
expect_code ledger-ingest-repo-6.1 "runrec with configs and commits" 0 "$LEDGER" --db cfg.db ingest runs.jsonl --repo repo
expect_eq ledger-ingest-repo-6.2 "configs on both sides: exact; a config on one: the code" \
"b|model.depth|8|9|exact
c|optim.adam_betas|(0.8, 0.95)|(0.9, 0.95)|code" \
	"$(sql cfg.db "SELECT r.run_id, var, old, new, how FROM changes c JOIN runs r ON r.id = c.run ORDER BY 1, 2")"

expect_code ledger-ingest-repo-7.1 "--repo that is no repository" 2 "$LEDGER" --db $DB ingest results.tsv --started-at "$T" --repo nowhere
expect_match ledger-ingest-repo-7.2 "says so" "$err" "^ledger: ingest: --repo: 'nowhere' is not a git repository"
expect_code ledger-ingest-repo-7.3 "--script without --repo" 2 "$LEDGER" --db $DB ingest results.tsv --started-at "$T" --script train.py
expect_match ledger-ingest-repo-7.4 "says so" "$err" "--script .* needs --repo"
mkdir repo/sub
expect_code ledger-ingest-repo-7.5 "a directory inside the repository is refused, not searched upwards" 2 \
	"$LEDGER" --db $DB ingest results.tsv --started-at "$T" --repo repo/sub
expect_code ledger-ingest-repo-7.6 "its .git is a repository" 0 "$LEDGER" --db $DB ingest results.tsv --started-at "$T" --repo repo/.git
