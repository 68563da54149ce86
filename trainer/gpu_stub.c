/* gpu_stub.c — gpu.h for builds without CUDA: no GPU is ever usable, so
 * train.device=auto falls back to the CPU and train.device=cuda fails with
 * the reason below. Compiles to nothing when the CUDA path is built
 * (kernels/cuda.mk defines RL_HAVE_CUDA and supplies the real ones). */
#ifndef RL_HAVE_CUDA
#include "gpu.h"
#include "run.h"
#include "util.h"

int gpu_probe(struct gpu_probe *out, char *why, size_t n)
{
	memset(out, 0, sizeof(*out));
	snprintf(why, n, "this trainer was built without CUDA (nvcc not found at build time)");
	return -1;
}

int gpu_flash_supported(const struct config *c, char *why, size_t n)
{
	snprintf(why, n, "this trainer was built without CUDA");
	return -1;
}

int gpu_relu2_epilogue_supported(const struct config *c, char *why, size_t n)
{
	snprintf(why, n, "this trainer was built without CUDA");
	return -1;
}

int gpu_rotary_epilogue_supported(const struct config *c, char *why, size_t n)
{
	snprintf(why, n, "this trainer was built without CUDA");
	return -1;
}

int gpu_gemm_wgmma_supported(const struct config *c, char *why, size_t n)
{
	snprintf(why, n, "this trainer was built without CUDA");
	return -1;
}

int gpu_train(struct run *run)
{
	run_fail(run, "crash", "startup", "this trainer was built without CUDA");
	return -1;
}
#else
typedef int rl_gpu_stub_unused;
#endif
