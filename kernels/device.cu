/* device.cu — what the launchers ask of the device they run on. The
 * sm_90a kernels (flash_wgmma.cu, gemm_wgmma.cu) exist for compute
 * capability 9.0 alone, so flash.cu and gemm_wgmma.cu ask one question:
 * is this that device, and how many SMs has it. */
#include "kernels.h"

int hopper_sm_count(void)
{
	static int sms = -1;
	if (sms < 0) {
		int dev = 0, major = 0, minor = 0, n = 0;
		int asked = cudaGetDevice(&dev) == cudaSuccess &&
			    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess &&
			    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) == cudaSuccess &&
			    cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess;
		if (!asked) /* no device is an answer here, not an error to carry; a launch on */
			cudaGetLastError(); /* such a device fails on its own and says so */
		sms = asked && major == 9 && minor == 0 ? n : 0;
	}
	return sms;
}
