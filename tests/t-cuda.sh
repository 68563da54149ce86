# t-cuda.sh — the CUDA path where CI runs: no GPU. Test plan:
#   cuda-1.x  when nvcc exists, `make` built the CUDA path (kernel objects,
#             trainer linked against the CUDA runtime)
#   cuda-2.x  train.device=cuda without a GPU: exit 2, the "no CUDA GPU"
#             message and hint on stderr, and no record (a usage error)
#   cuda-3.x  train.device=auto without a GPU falls back to the CPU and
#             trains a tiny model to the end (exit 0, summary on stdout)
# On a machine with a GPU the no-GPU cases are skipped (said as such).
. "$ROOT/tests/lib.sh"

# The Makefile's rule for finding nvcc; `make NVCC= test` (set, even empty)
# overrides it there and here alike.
if [ "${NVCC+set}" = set ]; then
	nvcc=$NVCC
else
	nvcc=$(command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
fi
has_gpu=0
nvidia-smi -L >/dev/null 2>&1 && has_gpu=1

if [ -n "$nvcc" ]; then
	n=$(ls "$BUILD"/obj/kernels/*.o 2>/dev/null | wc -l)
	want=$(ls "$ROOT"/kernels/*.cu | wc -l)
	expect_eq cuda-1.1 "every kernels/*.cu compiled when nvcc exists" "$want" "$n"
	expect_match cuda-1.2 "trainer linked against the CUDA runtime" \
		"$(nm -u "$TRAINER" 2>/dev/null; nm "$TRAINER" 2>/dev/null)" 'cudaGetDeviceCount'
else
	ok cuda-1.1 "skipped: no nvcc, CPU-only build"
	ok cuda-1.2 "skipped: no nvcc, CPU-only build"
fi

if [ "$has_gpu" -eq 1 ]; then
	ok cuda-2.1 "skipped: this machine has a GPU"
	exit 0
fi

expect_code cuda-2.1 "train.device=cuda without a GPU exits 2" 2 \
	"$TRAINER" train.device=cuda --record rec.jsonl
expect_match cuda-2.2 "the error names the missing GPU" "$err" \
	'^trainer: train\.device=cuda: no CUDA GPU: '
expect_match cuda-2.3 "a hint says how to train anyway" "$err" \
	'^trainer: hint: use train\.device=cpu'
expect_no_match cuda-2.4 "no summary block on stdout" "$out" '^val_bpb:'
[ ! -e rec.jsonl ] && ok cuda-2.5 "no record for a usage error" ||
	not_ok cuda-2.5 "no record for a usage error" "$(cat rec.jsonl)"

mkdir -p text
awk 'BEGIN { for (i = 0; i < 400; i++) printf "line %d of a tiny corpus, the quick brown fox.\n", i }' \
	>text/a.txt
"$TRAINER" prepare-data --out data --val-fraction 0.2 text >/dev/null 2>&1
expect_code cuda-3.1 "train.device=auto falls back to the CPU" 0 \
	"$TRAINER" train.device=auto data.path=data model.depth=1 model.dim=16 model.heads=2 \
	model.seq_len=16 train.device_batch_size=2 train.total_batch_size=32 \
	train.time_budget_s=1 train.eval_tokens=256
expect_match cuda-3.2 "the CPU run prints the summary" "$out" '^val_bpb: +[0-9]'
