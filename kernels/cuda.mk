# cuda.mk — the CUDA path of the trainer, included by the top Makefile
# (`-include kernels/cuda.mk`). Does nothing unless the Makefile found nvcc
# (NVCC non-empty); then it compiles kernels/*.cu and trainer/gpu_*.cu for
# sm_90 plus portable compute_90 PTX, appends them to TRAINER_OBJ, links the
# trainer against cudart/cuBLASLt/cuBLAS (through $(CXX)) and defines
# RL_HAVE_CUDA so trainer/gpu_stub.c steps aside. No GPU is needed to build.

ifneq ($(strip $(NVCC)),)
comma := ,
CUDA_HOME := $(patsubst %/bin/nvcc,%,$(NVCC))
CUDA_LIBDIR := $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/lib))
NVCC_ARCH := -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
NVCC_FLAGS := -O3 -std=c++17 $(NVCC_ARCH) -Ikernels -Itrainer -Icommon -MMD -MP
CUDA_SRC := $(wildcard kernels/*.cu) $(wildcard trainer/gpu_*.cu)
CUDA_OBJ := $(patsubst %.cu,$(BUILD)/obj/%.o,$(CUDA_SRC))

TRAINER_OBJ += $(CUDA_OBJ)
# rpath: the trainer then runs without LD_LIBRARY_PATH where CUDA lives here
TRAINER_LIBS := $(if $(CUDA_LIBDIR),-L$(CUDA_LIBDIR) -Wl$(comma)-rpath$(comma)$(CUDA_LIBDIR)) \
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
endif
