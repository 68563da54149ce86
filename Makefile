# runledger — one Makefile for trainer, ledger and report.
#
#   make                 build build/{trainer,ledger,report}
#   make test            build and run the test suite (tests/run.sh)
#   make SAN=1 test      the same under AddressSanitizer + UBSan (build-san/)
#   make fuzz            build the libFuzzer harnesses (clang, build-fuzz/) and run
#                        each for FUZZ_SECONDS (default 60); docs/fuzzing.md
#   make deps            install missing Debian packages (scripts/deps.sh)
#   make infer-eval      score description inference on tests/fixtures/infer
#                        (INFER_DIR=DIR for another corpus; tests/infer/eval.c)
#   make demo            prepare sample data, train, ingest, report
#   make corpus          the >= 50 MB corpus for GPU benchmarks (data/docs-en)
#   make install PREFIX=/usr/local [DESTDIR=…]
#                        bin/runledger (the one command on PATH), the programs
#                        in libexec/runledger/, templates, man pages and bash
#                        completion generated from the option tables
#   make clean
#
# Sources are found by directory: common/*.c is a static library shared by
# all three programs; ledger/*.c, report/*.c and trainer/*.c are programs
# (each has main.c). The CUDA path (kernels/cuda.mk) is added whenever nvcc
# exists; without it the trainer is CPU-only.

PREFIX ?= /usr/local
VERSION ?= 0.1.0
CC ?= cc
OPT ?= -O2
BUILD ?= build

ifeq ($(SAN),1)
override BUILD := $(BUILD)-san
OPT := -O1
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif

PKGS := sqlite3 jansson
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(or $(shell pkg-config --libs $(PKGS) 2>/dev/null),-lsqlite3 -ljansson)
CMARK_LIBS := -lcmark-gfm-extensions -lcmark-gfm
# libgit2 (Debian libgit2-dev) for ledger ingest --repo: the ledger, the
# report (it links the ledger library) and the unit tests link it; the
# trainer does not.
GIT_CFLAGS := $(shell pkg-config --cflags libgit2 2>/dev/null)
GIT_LIBS := $(or $(shell pkg-config --libs libgit2 2>/dev/null),-lgit2)
# libpq (Debian libpq-dev) for PostgreSQL ledgers (docs/postgres.md): linked
# where libgit2 is, the trainer does not need it.
PQ_CFLAGS := $(or $(shell pkg-config --cflags libpq 2>/dev/null),-I/usr/include/postgresql)
PQ_LIBS := $(or $(shell pkg-config --libs libpq 2>/dev/null),-lpq)
GIT_LIBS += $(PQ_LIBS)
OMP := -fopenmp

WARN := -Wall -Wextra -Wshadow -Wno-unused-parameter -Wno-sign-compare
CFLAGS ?= -g $(OPT)
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(SANFLAGS) $(OMP) -Icommon -Iledger -Itrainer -Ireport -Ikernels $(PKG_CFLAGS) $(GIT_CFLAGS) $(PQ_CFLAGS) -MMD -MP
LDLIBS_ALL = $(PKG_LIBS) $(CMARK_LIBS) -lcsv -lm -lpthread
ALL_LDFLAGS = $(LDFLAGS) $(SANFLAGS) $(OMP)

COMMON_SRC  := $(wildcard common/*.c)
LEDGER_SRC  := $(wildcard ledger/*.c)
REPORT_SRC  := $(wildcard report/*.c)
TRAINER_SRC := $(wildcard trainer/*.c)
FRONT_SRC   := front/main.c
UNIT_SRC    := $(wildcard tests/unit/*.c)

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
COMMON_OBJ  := $(call obj,$(COMMON_SRC))
LEDGER_OBJ  := $(call obj,$(filter-out ledger/main.c,$(LEDGER_SRC)))
REPORT_OBJ  := $(call obj,$(filter-out report/main.c,$(REPORT_SRC)))
TRAINER_OBJ := $(call obj,$(filter-out trainer/main.c,$(TRAINER_SRC)))
UNIT_BIN    := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))

# The CUDA path appends to TRAINER_OBJ / TRAINER_LIBS / ALL_CFLAGS when nvcc is found.
TRAINER_LIBS :=
ifeq ($(origin NVCC),undefined)
NVCC := $(shell command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
endif
-include kernels/cuda.mk

PROGRAMS := $(BUILD)/ledger $(BUILD)/report $(BUILD)/trainer
FRONT := $(BUILD)/runledger
# generated from the option tables (common/opts.c): `make install` installs them
MANPAGES := $(BUILD)/man/runledger.1 $(BUILD)/man/runledger-report.1 $(BUILD)/man/runledger-train.1
COMPLETION := $(BUILD)/runledger.bash
LIBS_A := $(BUILD)/libtrainer.a $(BUILD)/libreport.a $(BUILD)/libledger.a $(BUILD)/libcommon.a

all: $(PROGRAMS) $(FRONT) $(UNIT_BIN) $(BUILD)/infer-eval $(MANPAGES) $(COMPLETION)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# the version is passed to this one object, so a new one rebuilds only it
$(BUILD)/obj/common/version.o: ALL_CFLAGS += -DRL_VERSION='"$(VERSION)"'

$(BUILD)/libcommon.a: $(COMMON_OBJ)
$(BUILD)/libledger.a: $(LEDGER_OBJ)
$(BUILD)/libreport.a: $(REPORT_OBJ)
$(BUILD)/libtrainer.a: $(TRAINER_OBJ)
$(LIBS_A):
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^ $(if $^,,$(BUILD)/obj/empty.o)

$(BUILD)/obj/empty.o:
	@mkdir -p $(dir $@)
	echo 'typedef int rl_empty_unit;' | $(CC) -x c -c - -o $@
$(LIBS_A): | $(BUILD)/obj/empty.o

LINK = $(if $(TRAINER_LIBS),$(CXX),$(CC))

$(BUILD)/ledger: $(BUILD)/obj/ledger/main.o $(BUILD)/libledger.a $(BUILD)/libcommon.a
	$(CC) $(ALL_LDFLAGS) $^ $(GIT_LIBS) $(LDLIBS_ALL) -o $@
$(BUILD)/report: $(BUILD)/obj/report/main.o $(BUILD)/libreport.a $(BUILD)/libledger.a $(BUILD)/libcommon.a
	$(CC) $(ALL_LDFLAGS) $^ $(GIT_LIBS) $(LDLIBS_ALL) -o $@
$(BUILD)/trainer: $(BUILD)/obj/trainer/main.o $(BUILD)/libtrainer.a $(BUILD)/libcommon.a
	$(LINK) $(ALL_LDFLAGS) $^ $(TRAINER_LIBS) $(LDLIBS_ALL) -o $@
$(BUILD)/runledger: $(BUILD)/obj/front/main.o $(BUILD)/libcommon.a
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS_ALL) -o $@

$(BUILD)/man/runledger.1: $(BUILD)/ledger
	@mkdir -p $(dir $@)
	$< --help-man > $@
$(BUILD)/man/runledger-report.1: $(BUILD)/report
	@mkdir -p $(dir $@)
	$< --help-man > $@
$(BUILD)/man/runledger-train.1: $(BUILD)/trainer
	@mkdir -p $(dir $@)
	$< --help-man > $@
$(COMPLETION): $(PROGRAMS) $(FRONT)
	{ $(BUILD)/ledger --help-completion && $(BUILD)/report --help-completion && \
	  $(BUILD)/trainer --help-completion && $(BUILD)/runledger --help-completion; } > $@

# Unit tests compile as C (the obj rule) and link like the trainer.
$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(LIBS_A)
	@mkdir -p $(dir $@)
	$(LINK) $(ALL_LDFLAGS) $< $(LIBS_A) $(TRAINER_LIBS) $(GIT_LIBS) $(LDLIBS_ALL) -o $@

# The description-inference harness: not a unit test (tests/run.sh runs
# those); tests/t-infer-eval.sh checks its scorer.
$(BUILD)/infer-eval: $(BUILD)/obj/tests/infer/eval.o $(BUILD)/libledger.a $(BUILD)/libcommon.a
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS_ALL) -o $@

INFER_DIR ?= tests/fixtures/infer
infer-eval: $(BUILD)/infer-eval
	$(BUILD)/infer-eval $(INFER_DIR)

test: all
	BUILD=$(BUILD) sh tests/run.sh

deps:
	sh scripts/deps.sh

demo: all
	BUILD=$(BUILD) sh scripts/demo.sh

corpus: $(BUILD)/trainer
	BUILD=$(BUILD) sh scripts/corpus.sh

# One name on PATH (bin/runledger, like git): `ledger` is a Debian package,
# `report` and `trainer` too generic. The programs keep their names in
# libexec/runledger/, where runledger looks for them (front/main.c), and
# report finds the templates from there (report/output.c).
install: $(PROGRAMS) $(FRONT) $(MANPAGES) $(COMPLETION)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/libexec/runledger \
		$(DESTDIR)$(PREFIX)/share/runledger/templates $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 755 $(FRONT) $(DESTDIR)$(PREFIX)/bin/
	install -m 755 $(PROGRAMS) $(DESTDIR)$(PREFIX)/libexec/runledger/
	cp -R templates/. $(DESTDIR)$(PREFIX)/share/runledger/templates/
	install -m 644 $(MANPAGES) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(COMPLETION) $(DESTDIR)$(PREFIX)/share/bash-completion/completions/runledger

clean:
	rm -rf build build-san build-*

.PHONY: all infer-eval test deps demo corpus install clean
.SECONDARY:
.DELETE_ON_ERROR:

# make fuzz: the libFuzzer harnesses (docs/fuzzing.md)
include fuzz/fuzz.mk

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
