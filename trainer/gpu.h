/* gpu.h — the GPU entry points the trainer's driver calls. Implemented by
 * the CUDA path (trainer/gpu_NAME.cu, kernels/NAME.cu, built by kernels/cuda.mk
 * which defines RL_HAVE_CUDA) or, in builds without nvcc, by gpu_stub.c.
 * Must not include CUDA headers: the CPU build compiles this too. */
#ifndef RL_TRAINER_GPU_H
#define RL_TRAINER_GPU_H
#include <stddef.h>

struct run;
struct config;

struct gpu_probe {
	char name[128];          /* "NVIDIA H200" */
	double mem_mb;           /* total memory of device 0 */
	char compute_capability[16]; /* "9.0" */
	char driver[32];         /* driver version, "550.54.15" */
	char cuda[32];           /* CUDA runtime version, "12.4" */
	int count;               /* visible devices */
};

/* 0 when a CUDA GPU is usable (out filled); otherwise -1 with the reason
 * in why (n bytes), e.g. "this trainer was built without CUDA …". */
int gpu_probe(struct gpu_probe *out, char *why, size_t n);

/* 0 when the flash attention kernels handle this shape (head size and
 * seq_len); otherwise -1 with the reason in why. Pure arithmetic on the
 * config: no GPU needed. */
int gpu_flash_supported(const struct config *c, char *why, size_t n);
/* 0 when impl.relu2=epilogue can run: this machine's GPU has compute
 * capability 9.0 (kernels/gemm_wgmma.cu is sm_90a code) and the MLP's
 * shapes fit its tiles; else -1 with why. */
int gpu_relu2_epilogue_supported(const struct config *c, char *why, size_t n);
/* 0 when impl.rotary=epilogue can run: compute capability 9.0, flash
 * attention (its packed q, k, v), head size 128, dim a multiple of 256,
 * seq_len of 128; else -1 and why. */
int gpu_rotary_epilogue_supported(const struct config *c, char *why, size_t n);
/* 0 when impl.gemm=wgmma can run: compute capability 9.0 and every
 * product it takes a shape of our GEMM's (gemm_wgmma_supported) */
int gpu_gemm_wgmma_supported(const struct config *c, char *why, size_t n);

/* Run the training loop of run.h on the GPU: the same model, data order,
 * schedule and stopping rules as cpu_train(), filling run->metrics and, on
 * failure, run->status / run->failure. Returns 0 when the run ended ok. */
int gpu_train(struct run *run);

#endif
