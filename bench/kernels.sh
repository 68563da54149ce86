#!/bin/sh
# kernels.sh — the GPU harness in one command: build bench/kernels.cu and
# bench/kernels_model.cu against the trainer's objects, then (on a machine
# with a GPU) check every kernel against its CPU reference and time it,
# check the whole model against the CPU model, and print the tables.
#   sh bench/kernels.sh [build|run|all] [BUILD]    (default: all build)
# BUILD is the make build directory holding libtrainer.a (make first).
# Exit status: 0 all checks passed, 1 a check failed, 2/3 build or runtime.
set -eu
what=${1:-all}
BUILD=${2:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA_HOME=${NVCC%/bin/nvcc}
cd "$ROOT"

build() {
	for prog in kernels kernels_model; do
		"$NVCC" -O2 -std=c++17 -gencode arch=compute_90,code=sm_90 \
			-Ikernels -Itrainer -Icommon "bench/$prog.cu" \
			"$BUILD/libtrainer.a" "$BUILD/libcommon.a" -Xcompiler -fopenmp \
			-L"$CUDA_HOME/lib64" -lcublasLt -lcublas -ljansson -lm -o "$BUILD/bench_$prog" ||
			exit 2
	done
	# the in-situ kernel tracer (bench/cupti_trace.c), loaded through
	# CUDA_INJECTION64_PATH; libcupti found beside it or in CUDA's lib64
	cc -std=c11 -O2 -Wall -shared -fPIC -I"$CUDA_HOME/include" bench/cupti_trace.c \
		-L"$CUDA_HOME/lib64" -lcupti -Wl,-rpath,'$ORIGIN' -Wl,-rpath,"$CUDA_HOME/lib64" \
		-o "$BUILD/libcupti_trace.so" || exit 2
}

run() {
	rc=0
	"$BUILD/bench_kernels" || rc=1
	"$BUILD/bench_kernels_model" check || rc=1
	return $rc
}

case $what in
build) build ;;
run) run ;;
all) build && run ;;
*) echo "usage: sh bench/kernels.sh [build|run|all] [BUILD]" >&2; exit 2 ;;
esac
