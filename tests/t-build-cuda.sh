# t-build-cuda.sh — how the Makefile finds CUDA (kernels/cuda.mk).
# Test plan: with `make -n` and fake nvcc scripts (no toolkit needed), an
# nvcc that is a wrapper elsewhere on PATH still links against the lib dir
# its dry run names (TOP=); an nvcc without libcudart.so next to it builds
# the CPU-only trainer and says why, instead of failing at link time (the
# CI machine's /usr/local/bin/nvcc once sent the link to /usr/local/lib).
. "$ROOT/tests/lib.sh"
# `make SAN=1 test` runs this file: the outer make's command-line SAN=1
# reaches us in the environment and in MAKEFLAGS (with its jobserver), and
# would turn the inner make's BUILD into BUILD-san. inner_make drops them.
inner_make() {
	env -u SAN -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES make -n -C "$ROOT" "$@"
}

# fake_nvcc DIR TOP: an executable DIR/nvcc whose dry run names TOP
fake_nvcc() {
	mkdir -p "$1"
	printf '#!/bin/sh\necho "#\$ TOP=%s/bin/.."\n' "$2" >"$1/nvcc"
	chmod +x "$1/nvcc"
}

mkdir -p toolkit/bin toolkit/lib64 toolkit/include
: >toolkit/lib64/libcudart.so
fake_nvcc wrapper "$PWD/toolkit"
expect_code build-cuda-1.1 "make -n with a wrapper nvcc" 0 \
	inner_make BUILD="$PWD/b1" NVCC="$PWD/wrapper/nvcc" "$PWD/b1/trainer"
expect_match build-cuda-1.2 "the trainer links against the toolkit nvcc names" \
	"$out" "-L$PWD/toolkit/lib64 .*-lcudart"
expect_match build-cuda-1.3 "and compiles the CUDA path" "$out" "-DRL_HAVE_CUDA"

mkdir -p bare/bin
fake_nvcc bare/bin "$PWD/bare"
expect_code build-cuda-2.1 "make -n with an nvcc that has no runtime" 0 \
	inner_make BUILD="$PWD/b2" NVCC="$PWD/bare/bin/nvcc" "$PWD/b2/trainer"
expect_no_match build-cuda-2.2 "the trainer is built without CUDA" "$out" "lcudart|RL_HAVE_CUDA"
expect_match build-cuda-2.3 "make says why" "$err" "no libcudart.so under $PWD/bare"
