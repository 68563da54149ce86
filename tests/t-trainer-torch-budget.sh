# t-trainer-torch-budget.sh — bench/torch/train.py (the PyTorch side of the
# 5-minute side-by-side run, docs/performance.md) draws the trainer's
# batches, validation windows and LR schedule. Test plan:
#   torch-budget-1.x  tests/torch/batches.c, linked against the trainer's
#                     own data.c / run.c / config.c, and tests/torch/batches.py,
#                     calling train.py's functions, print the same train
#                     windows (3 draws of seed 42), validation batch count
#                     and windows, and LR multipliers, on prepared data with
#                     several documents (B 4 x T 64) and at a batch the small
#                     val split cannot fill (B 64 x T 512: 0 batches)
#   torch-budget-2.x  train.py refuses a shard whose bytes do not match the
#                     manifest
# Needs numpy (scripts/deps.sh), not torch: train.py imports torch in main.
. "$ROOT/tests/lib.sh"

PY=""
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import numpy' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
	not_ok need-numpy "t-trainer-torch-budget needs python3 with numpy" \
		"install it: sh scripts/deps.sh (as root), or apt-get install python3-numpy"
	exit 1
fi

mkdir src
for i in 1 2 3 4 5 6; do
	seq "$i" 3 2000 | sed "s/^/doc $i line /" >"src/d$i.txt"
done
"$TRAINER" prepare-data --out d src 2>/dev/null
# a sanitizer build's library (make SAN=1) needs its runtime linked in too
san=""
nm "$BUILD/libtrainer.a" 2>/dev/null | grep -q __asan_ && san="-fsanitize=address,undefined"
# shellcheck disable=SC2086
cc -std=c11 -D_GNU_SOURCE $san -I"$ROOT/common" -I"$ROOT/trainer" "$ROOT/tests/torch/batches.c" \
	"$BUILD/libtrainer.a" "$BUILD/libcommon.a" -ljansson -lm -fopenmp -o batches 2>cc.err
expect_eq torch-budget-1.0 "the helper builds against the trainer's library" "" "$(cat cc.err)"

./batches d 4 64 3 >c.txt 2>&1
"$PY" "$ROOT/tests/torch/batches.py" "$ROOT" d 4 64 3 >py.txt 2>&1
expect_eq torch-budget-1.1 "some windows, val batches and 21 LR points were printed" "24 1 16 21" \
	"$(grep -c '^train-' c.txt) $(grep -c '^val-batches [1-9]' c.txt) $(grep -c '^val-' c.txt | awk '{print $1 - 1}') $(grep -c '^lr ' c.txt)"
expect_eq torch-budget-1.2 "train.py draws the trainer's batches, val windows and schedule" \
	"$(cat c.txt)" "$(cat py.txt)"
./batches d 64 512 1 >c2.txt 2>&1
"$PY" "$ROOT/tests/torch/batches.py" "$ROOT" d 64 512 1 >py2.txt 2>&1
expect_match torch-budget-1.3 "a val split shorter than one batch gives 0 batches" "$(cat c2.txt)" '^val-batches 0$'
expect_eq torch-budget-1.4 "... in train.py too, with the same windows" "$(cat c2.txt)" "$(cat py2.txt)"

printf 'x' | dd of=d/train_000.bin bs=1 seek=100 conv=notrunc 2>/dev/null
expect_code torch-budget-2.1 "a tampered shard is refused" 1 "$PY" "$ROOT/tests/torch/batches.py" "$ROOT" d 4 64 1
expect_match torch-budget-2.2 "... naming the shard and the manifest" "$err" 'train_000.bin: sha256 does not match'
