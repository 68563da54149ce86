#!/bin/sh
# run.sh — the trainer benchmark against PyTorch, in one run on one GPU:
# ours (bench_kernels_model bench: naive and flash attention, AdamW and Muon),
# PyTorch eager and torch.compile (bench.py)
# at the issue's default shape (depth 8, dim 512, 4 heads of 128) and at
# depth 12 / dim 768 (6 heads of 128); seq 2048, batch 64, bytes, one
# optimiser step per micro-batch. Prints a markdown table whose reference
# row for each shape is PyTorch eager, every row with its ratio to it.
#   sh bench/torch/run.sh [BUILD] [STEPS]      (after sh bench/kernels.sh build)
# ROWS (default all: "eager naive flash relu2 rotary gemm graphs muon
# compile"; relu2 = flash with impl.relu2=epilogue, rotary = that and
# impl.rotary=epilogue, gemm = that and impl.gemm=wgmma, the Hopper
# default; Hopper only) picks rows, for
# a run that must fit a short GPU lease; a shape's ratios need its eager
# row (vs eager) and compile row (vs compile).
set -u
BUILD=${1:-build}
STEPS=${2:-20}
ROWS=${ROWS:-eager naive flash relu2 rotary gemm graphs muon compile}
row() { case " $ROWS " in *" $1 "*) return 0 ;; esac; return 1; }
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cd "$ROOT"
for shape in "8 512 4" "12 768 6"; do
	set -- $shape
	! row eager || PYTHONUNBUFFERED=1 python3 bench/torch/bench.py eager "$1" "$2" "$3" "$STEPS" | tee -a "$log"
	! row naive || "$BUILD/bench_kernels_model" bench "$1" "$2" "$3" adamw "$STEPS" naive | tee -a "$log"
	! row flash || "$BUILD/bench_kernels_model" bench "$1" "$2" "$3" adamw "$STEPS" flash | tee -a "$log"
	! row relu2 || "$BUILD/bench_kernels_model" bench "$1" "$2" "$3" adamw "$STEPS" flash,relu2_epilogue | tee -a "$log"
	! row rotary || "$BUILD/bench_kernels_model" bench "$1" "$2" "$3" adamw "$STEPS" flash,relu2_epilogue,rotary_epilogue | tee -a "$log"
	! row gemm || "$BUILD/bench_kernels_model" bench "$1" "$2" "$3" adamw "$STEPS" flash,relu2_epilogue,rotary_epilogue,own_gemm | tee -a "$log"
	! row graphs || "$BUILD/bench_kernels_model" bench "$1" "$2" "$3" adamw "$STEPS" flash,graphs | tee -a "$log"
	! row muon || "$BUILD/bench_kernels_model" bench "$1" "$2" "$3" muon "$STEPS" flash | tee -a "$log"
	! row compile || PYTHONUNBUFFERED=1 python3 bench/torch/bench.py compile "$1" "$2" "$3" "$STEPS" | tee -a "$log"
done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null |
	sed 's/^/# gpu: /'
echo "# $STEPS timed steps after 3 warm-ups; tokens/s from CUDA events; MFU = tokens/s x"
echo "# FLOPs/token (docs/cuda.md) / peak bf16 of common/hw.c; memory = peak allocated by the run"
echo
awk '
function kv(k,   i, a) { for (i = 1; i <= NF; i++) { split($i, a, "="); if (a[1] == k) return a[2] } return "" }
/tokens_per_s=/ {
	shape = "depth " kv("depth") " dim " kv("dim")
	if ($1 == "torch-eager") ref[shape] = kv("tokens_per_s")
	if ($1 == "torch-compile") cref[shape] = kv("tokens_per_s")
	impl = kv("impl"); gsub(",", ", ", impl)
	n++; row[n] = $1 " (" kv("opt") (impl != "" ? ", " impl : "") ")"; sh[n] = shape; tok[n] = kv("tokens_per_s")
	mfu[n] = kv("mfu_percent"); mem[n] = kv("allocated_mb")
	# same model, same FLOPs per token: MFU scales with tokens/s
	if (mfu[n] != "" && mfu[n] != "nan") per_tok[shape] = mfu[n] / tok[n]
}
END {
	print "| shape | implementation | tokens/s | MFU % | peak MB | vs eager | vs compile |"
	print "|---|---|---|---|---|---|---|"
	for (i = 1; i <= n; i++) {
		m = mfu[i] != "" ? mfu[i] : (per_tok[sh[i]] ? sprintf("%.2f", tok[i] * per_tok[sh[i]]) : "unknown")
		printf "| %s | %s | %.3f M | %s | %s | %s | %s |\n", sh[i], row[i], tok[i] / 1e6, m, mem[i],
			ref[sh[i]] ? sprintf("%.2fx", tok[i] / ref[sh[i]]) : "-",
			cref[sh[i]] ? sprintf("%.2fx", tok[i] / cref[sh[i]]) : "-"
	}
}' "$log"
