# cuda.mk — the CUDA path of the trainer, included by the top Makefile
# (`-include kernels/cuda.mk`). Does nothing unless the Makefile found nvcc
# (NVCC non-empty); then it compiles kernels/*.cu and trainer/gpu_*.cu for
# sm_90 plus portable compute_90 PTX, appends them to TRAINER_OBJ, links the
# trainer against cudart/cuBLASLt/cuBLAS and defines
# RL_HAVE_CUDA so trainer/gpu_stub.c steps aside. No GPU is needed to build;
# an nvcc without libcudart.so next to it falls back to the CPU-only build.

ifneq ($(strip $(NVCC)),)
comma := ,
# Where the toolkit lives. nvcc on PATH may be a wrapper script
# (/usr/local/bin/nvcc exec'ing /usr/local/cuda-13.0/bin/nvcc), so its own
# directory says nothing; nvcc's dry run prints the real top (TOP=.../bin/..).
CUDA_HOME := $(abspath $(shell $(NVCC) --dryrun -c -x cu /dev/null -o /dev/null 2>&1 | sed -n 's/^\#\$$ TOP=//p' | head -n 1))
ifeq ($(strip $(CUDA_HOME)),)
CUDA_HOME := $(patsubst %/bin/nvcc,%,$(NVCC))
endif
CUDA_LIBDIR := $(patsubst %/,%,$(dir $(firstword $(wildcard \
	$(CUDA_HOME)/lib64/libcudart.so $(CUDA_HOME)/lib/libcudart.so \
	$(CUDA_HOME)/targets/x86_64-linux/lib/libcudart.so \
	$(CUDA_HOME)/targets/sbsa-linux/lib/libcudart.so \
	/usr/lib/$(shell $(CC) -dumpmachine)/libcudart.so))))
ifeq ($(strip $(CUDA_LIBDIR)),)
# A compiler without its runtime cannot link a trainer: build the CPU path
# rather than fail the whole build.
$(warning nvcc found ($(NVCC)) but no libcudart.so under $(CUDA_HOME); building the trainer without CUDA. Set NVCC= to silence, or CUDA_HOME=/path/to/cuda)
override NVCC :=
endif
endif

ifneq ($(strip $(NVCC)),)
NVCC_ARCH := -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
NVCC_FLAGS := -O3 -std=c++17 $(NVCC_ARCH) -Ikernels -Itrainer -Icommon -MMD -MP
CUDA_SRC := $(wildcard kernels/*.cu) $(wildcard trainer/gpu_*.cu)
CUDA_OBJ := $(patsubst %.cu,$(BUILD)/obj/%.o,$(CUDA_SRC))

TRAINER_OBJ += $(CUDA_OBJ)
# rpath: the trainer then runs without LD_LIBRARY_PATH where CUDA lives here
TRAINER_LIBS := -L$(CUDA_LIBDIR) -Wl$(comma)-rpath$(comma)$(CUDA_LIBDIR) \
	-lcudart -lcublasLt -lcublas -lstdc++
# The link needs only libstdc++ besides the C libraries, which TRAINER_LIBS
# names, so keep linking with $(CC): the Makefile's unit-test rule compiles
# tests/unit/*.c in the same command as it links, and $(CXX) would compile
# them as C++ (compound literals, implicit void* casts fail there).
override LINK = $(CC)
ALL_CFLAGS += -DRL_HAVE_CUDA -I$(CUDA_HOME)/include

$(BUILD)/obj/%.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCC_FLAGS) -DRL_HAVE_CUDA -c $< -o $@

# The wgmma kernels (flash attention, the MLP's GEMMs) exist for sm_90a
# only (arch-specific Hopper instructions: no portable PTX to embed);
# flash.cu and gemm_wgmma.cu's launcher run them on a compute capability
# 9.0 device alone.
SM90A_OBJ := $(BUILD)/obj/kernels/flash_wgmma.o $(BUILD)/obj/kernels/gemm_wgmma.o
$(SM90A_OBJ): NVCC_ARCH := -gencode arch=compute_90a,code=sm_90a
$(SM90A_OBJ): NVCC_FLAGS := -O3 -std=c++17 $(NVCC_ARCH) -Ikernels -Itrainer -Icommon -MMD -MP
endif
