# fuzz.mk — libFuzzer harnesses (fuzz/fuzz_*.c), included by the top
# Makefile. `make fuzz` builds them in build-fuzz/ with clang under
# -fsanitize=fuzzer,address,undefined and runs each (fuzz/run.sh);
# docs/fuzzing.md says how to run one by hand and keep a crash as a test.

FUZZ_NAMES := runrec paths cfgdiff tsv runlog arh template infer
FUZZ_BUILD := build-fuzz
FUZZ_SECONDS ?= 60
# Every object is instrumented for coverage; only the harness links the
# fuzzer's main. OpenMP and CUDA are the trainer's, which is not fuzzed.
FUZZ_SANFLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_BIN = $(patsubst %,$(BUILD)/fuzz/fuzz_%,$(FUZZ_NAMES))

$(BUILD)/fuzz/fuzz_%: $(BUILD)/obj/fuzz/fuzz_%.o $(BUILD)/obj/fuzz/ingest_sink.o \
		$(BUILD)/libreport.a $(BUILD)/libledger.a $(BUILD)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(GIT_LIBS) $(LDLIBS_ALL) -o $@

# fuzz_paths compares the two threads with one thread: here they take
# files of 2 lines or more, in chunks of 2 lines within a window of 6
# (ledger/ingest_runrec.c; 2,048, 64 and 8,192 in the real build), so that
# a small input goes through the worker's waits and this thread's
# preparing of chunks the worker has not taken
$(FUZZ_BUILD)/obj/ledger/ingest_runrec.o: CFLAGS += -DPIPE_MIN_LINES=2 -DPIPE_CHUNK=2 -DPIPE_WINDOW=6

fuzz-build: $(FUZZ_BIN)

fuzz:
	@command -v clang >/dev/null || { echo "fuzz: clang is missing; run: RUNLEDGER_WITH_FUZZ=1 sh scripts/deps.sh (as root), or apt-get install clang libclang-rt-14-dev" >&2; exit 2; }
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=clang OPT=-O1 OMP= NVCC= SANFLAGS='$(FUZZ_SANFLAGS)' fuzz-build
	FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) sh fuzz/run.sh $(FUZZ_TARGETS)

.PHONY: fuzz fuzz-build
