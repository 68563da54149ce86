/* cuda_check.h — the one CUDA_CHECK and CUBLAS_CHECK of the project.
 * Device-side code (kernels/, trainer/gpu_*.cu, bench/) only; host C code
 * never includes it. Each macro prints file:line, the failing call and the
 * library's own message to stderr, then makes the enclosing function return
 * -1 (launchers and driver functions return int rc: 0 = ok), so the caller
 * can record a failure instead of the process dying mid-run.
 * KERNEL_CHECK() goes after every launch: it catches bad launch
 * configurations at once (asynchronous faults surface at the next sync). */
#ifndef RL_CUDA_CHECK_H
#define RL_CUDA_CHECK_H
#include <stdio.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cublasLt.h>

#define CUDA_CHECK(call) do { \
	cudaError_t rl_e_ = (call); \
	if (rl_e_ != cudaSuccess) { \
		fprintf(stderr, "trainer: cuda: %s:%d: %s: %s (%s)\n", __FILE__, __LINE__, \
			#call, cudaGetErrorString(rl_e_), cudaGetErrorName(rl_e_)); \
		return -1; \
	} \
} while (0)

#define CUBLAS_CHECK(call) do { \
	cublasStatus_t rl_s_ = (call); \
	if (rl_s_ != CUBLAS_STATUS_SUCCESS) { \
		fprintf(stderr, "trainer: cublas: %s:%d: %s: %s (%s)\n", __FILE__, __LINE__, \
			#call, cublasGetStatusString(rl_s_), cublasGetStatusName(rl_s_)); \
		return -1; \
	} \
} while (0)

#define KERNEL_CHECK() CUDA_CHECK(cudaPeekAtLastError())

#endif
