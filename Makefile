# SPDX-License-Identifier: GPL-2.0
#
# LEON3 perf PMU: top-level build.  `make help` lists the targets.
#
# Every expensive stage is built by tools/build/stage through a cache
# outside the work tree (LEON3_PMU_CACHE, default ~/.cache/leon3-pmu),
# keyed by a hash of its inputs; build/ holds stable links into it and
# the logs.

SHELL := /bin/bash
TOP := $(CURDIR)
STAGE := $(TOP)/tools/build/stage
CACHE_DIR := $(or $(LEON3_PMU_CACHE),$(HOME)/.cache/leon3-pmu)

# One target at a time: stages build side by side only where
# tools/build/side-by-side runs them (the toolchain beside the stages
# that do not need it, then two chains of those that do).
.NOTPARALLEL:

.PHONY: all help deps fetch linux-headers toolchain qemu qemu-baseline qemu-parts \
	kernel kernel-debug busybox elfutils libpfm4 papi perf perf-host prom rootfs tag-plugin side-by-side toolchain-env kernel-menuconfig check \
	qemu-git qemu-series qemu-series-check kernel-git kernel-series \
	test run bench-qemu bench-qemu-parts bench-perf bench-record bench-read bench-mibench bench-trace bench-trace-decode bench-profile mibench sweep perf-event-tests fuzz module module-debug clean cache-clean

, := ,
CPUS ?= 1
MEM ?= 256M
CACHES ?= on
# make run ADD="prog data:/root/in": host files for the guest (HOST[:GUEST])
ADD ?=

# What the tests use: every stage but the unpatched QEMU, which only the
# benchmarks compare against
TESTED := toolchain qemu kernel busybox elfutils libpfm4 papi perf perf-host prom rootfs tag-plugin module

all: side-by-side $(TESTED) qemu-baseline

help:
	@echo 'LEON3 perf PMU — targets:'
	@echo '  make                 build every stage (toolchain qemu qemu-baseline kernel busybox elfutils libpfm4 papi'
	@echo '                       perf perf-host prom rootfs tag-plugin) and the module'
	@echo '  make run             build, then boot LEON3 Linux to a shell (CPUS=1..4, MEM=256M,'
	@echo '                       CACHES=on|off|VALUE: the cache control the PROM sets; Ctrl-A X quits;'
	@echo '                       ADD="FILE[:GUEST] ...": host files or directories in the guest, /root/NAME by default)'
	@echo '  make test            build (the debug kernel too; not qemu-baseline), then run every test;'
	@echo '                       ends with "N passed, N failed" (TEST_JOBS=N: one-core tests at a time)'
	@echo '  make check           fast tests that boot no guest (build scripts, guest binaries)'
	@echo '  make bench-qemu      what the PMU model costs: unpatched vs patched QEMU, ratios (ROUNDS=7)'
	@echo '  make bench-qemu-parts  what each part of the model costs (D-cache, I-cache, static counts),'
	@echo '                       on a QEMU that can leave them out: the qemu-parts stage (ROUNDS=7)'
	@echo '  make bench-perf      what perf stat costs a guest workload, one PMU interrupt and where its'
	@echo '                       kernel instructions go, function by function (ROUNDS=7; about 15 minutes)'
	@echo '  make bench-record    perf record at periods 1M..10k instructions: samples, lost, slow-down (RECORD_ROUNDS=3)'
	@echo '  make bench-read      what one counter read costs a task: read() against the user window (cycles)'
	@echo '  make bench-mibench MIBENCH_DIR=DIR  what counting costs MiBench programs in a Linux guest:'
	@echo '                       perf stat with and without hardware counters, ratios (ROUNDS=3 here;'
	@echo '                       LIMIT=S stops a run after S seconds and reports it, default 300;'
	@echo '                       LEON3_QEMU=Q another QEMU, LEON3_QEMU_B=Q a second one, alongside on a core of its own)'
	@echo '  make bench-trace MIBENCH_DIR=DIR  what tracing costs MiBench programs: tags a million'
	@echo '                       instructions, cycles a tag, trace bytes, compression, traced against'
	@echo '                       untraced host time, and a branch trace'"'"'s bytes and time (ROUNDS=3 here;'
	@echo '                       LIMIT=S as bench-mibench)'
	@echo '  make bench-trace-decode  what tools/leon3-trace'"'"'s analysis costs on a long trace (MTAGS=5 million'
	@echo '                       tag runs): runs of a tag as one event against one event a tag'
	@echo '  make bench-profile PROG="BINARY [ARGS]"  where QEMU'"'"'s time goes when a program is counted'
	@echo '                       under Linux: host profiles of a guest that runs it alone and one that'
	@echo '                       counts it, function by function (ROUNDS=5 here; ADD="FILE ...": its input'
	@echo '                       files, in /root; build/model-profile)'
	@echo '  make mibench MIBENCH_DIR=DIR  MiBench in the guest under perf stat: the LEON3 PMU paper'"'"'s table,'
	@echo '                       CSV and plot in build/mibench (RUNS=10, CPUS="1 2 4", MIBENCH_INPUT=small|large, JOBS,'
	@echo '                       DETERMINISTIC=1: QEMU -icount, runs that repeat exactly,'
	@echo '                       MIBENCH_FP=soft: software floating point, in build/mibench-soft,'
	@echo '                       MIBENCH_LINK=dynamic: against the shared glibc, in build/mibench-dynamic)'
	@echo '  make sweep           the cache design-space sweep: workloads x cache geometries x competitors,'
	@echo '                       mean and 95 % CI, CSV and plots in build/sweep (SWEEP_WORKLOADS, SWEEP_GEOMETRIES,'
	@echo '                       SWEEP_COMPETITORS="0 1 3", SWEEP_REPEATS=5, MIBENCH_DIR: MiBench too; JOBS=N here,'
	@echo '                       SSHLOGINFILE=F: GNU parallel over machines, SLURM=1: a Slurm array job,'
	@echo '                       SHADOW=1: geometries differing only in the D-cache (or else only in the I-cache)'
	@echo '                       share runs, as shadow caches,'
	@echo '                       SWEEP_SCOPES="prog": count only some of all, prog, text, in fewer passes)'
	@echo '  make perf-event-tests PET_DIR=DIR  Vince Weaver'"'"'s perf_event_tests in the guest on 1 and 2 CPUs:'
	@echo '                       each program'"'"'s verdict, and why where not PASSED, in build/perf-event-tests'
	@echo '                       (CPUS, JOBS: vCPUs at a time, PET_LIMIT=600 seconds a program,'
	@echo '                       PET_ICOUNT=1: QEMU -icount shift=5, about a LEON3'"'"'s instruction rate)'
	@echo '  make fuzz            fuzz the PMU driver with random perf_event_attr (LEON3_FUZZ_SECONDS, LEON3_FUZZ_SEED)'
	@echo '  make linux-headers   UAPI headers of the patched kernel, for the toolchain and its glibc'
	@echo '  make toolchain       guest toolchain sparc-leon3-linux-gnu (gcc-12, glibc 2.36; -msoft-float multilib)'
	@echo '  make qemu            QEMU 10.0 with qemu-patches/series -> build/bin/qemu-system-sparc, qemu-sparc'
	@echo '  make qemu-baseline   the same QEMU unpatched -> build/bin/qemu-system-sparc-baseline'
	@echo '  make qemu-git        the git branches where QEMU work happens: the pinned tarball (tag upstream)'
	@echo '                       + git am of qemu-patches/series -> build/qemu-git, branch leon3-pmu,'
	@echo '                       and of qemu-patches/rfc/series on top -> branch leon3-pmu-rfc'
	@echo '  make qemu-series     write those branches back as qemu-patches/ and qemu-patches/rfc/ (git'
	@echo '                       format-patch, the cover letters'"'"' shortlog and diffstat); says how much of'
	@echo '                       each series reworks itself'
	@echo '  make qemu-series-check  build every commit of both (sparc-softmmu, sparc64-softmmu,'
	@echo '                       sparc-linux-user, --enable-werror) and run the bare-metal tests on each'
	@echo '  make qemu-parts      the qemu stage + tools/bench/qemu-parts.patch -> build/bin/qemu-system-sparc-parts'
	@echo '  make kernel          Linux 6.12 with kernel/patches/series -> build/linux/vmlinux'
	@echo '  make kernel-git      the git branches where kernel work happens: the pinned tarball (tag upstream)'
	@echo '                       + git am of kernel/patches/series -> build/linux-git, a branch a group'
	@echo '                       (sparc32, perf-core, perf-tools, driver), each stacked on the one before'
	@echo '  make kernel-series   write those branches back as kernel/patches/ (git format-patch, the series'
	@echo '                       with a line a group); says how much of the series reworks itself and'
	@echo '                       whether each group applies to upstream alone (or on those it needs)'
	@echo '  make kernel-debug    the same kernel + kernel/config/debug.config (lockdep) -> build/linux-debug'
	@echo '  make module          the leon3_pmu driver (kernel/) -> build/module/leon3_pmu.ko'
	@echo '  make module-debug    the driver for the debug kernel -> build/module-debug/leon3_pmu.ko'
	@echo '  make busybox         static busybox for the guest'
	@echo '  make elfutils        static libelf and libdw (zlib, liblzma, libbz2, libzstd) for perf'
	@echo '  make libpfm4         libpfm4 with the LEON3 PMU model (tools/libpfm4/patches), static for the guest'
	@echo '                       -> build/libpfm4 (lib, include, bin: showevtinfo, check_events, validate, perf_examples)'
	@echo '  make papi            PAPI with the LEON3 presets (tools/papi/patches) on that libpfm4, static for the guest'
	@echo '                       -> build/papi (lib, include, bin: papi_avail ..., ctests, validation_tests)'
	@echo '  make perf            the kernel'"'"'s perf tool, static for the guest, with libpfm4 -> build/perf/perf'
	@echo '  make perf-host       the same perf for the host, to read the guest'"'"'s perf.data -> build/perf-host/perf'
	@echo '  make prom            the boot PROM -> build/prom/prom.bin'
	@echo '  make rootfs          guest initramfs -> build/rootfs/initramfs.cpio'
	@echo '  make tag-plugin      the GCC plugin that puts control-flow tags into programs'
	@echo '                       (-fplugin=build/tags/leon3_tags.so; Documentation/tags.md)'
	@echo '  make side-by-side    the toolchain and, beside it, the stages that do not need it (QEMU, the'
	@echo '                       kernels, the host perf), then two chains of those that need it: the'
	@echo '                       first step of make, make test and make check'
	@echo '  make fetch           download and verify every pinned source (sources.lock)'
	@echo '  make deps            install the Debian packages the build needs'
	@echo '  make toolchain-env   print the PATH line for the guest toolchain'
	@echo '  make kernel-menuconfig  edit kernel/config/leon3.config with menuconfig'
	@echo '  make clean           remove build/ (the cache stays)'
	@echo '  make cache-clean     remove the cache ($(CACHE_DIR))'
	@echo 'Environment: LEON3_PMU_CACHE=DIR, LEON3_SRC_<NAME>=DIR|TARBALL (e.g.'
	@echo 'LEON3_SRC_QEMU=~/qemu-10.0.13.tar.xz), JOBS=N.  See Documentation/building.md.'

deps:
	@tools/build/host-deps

fetch: deps
	@tools/build/fetch

linux-headers toolchain qemu qemu-baseline qemu-parts kernel kernel-debug busybox elfutils libpfm4 papi perf perf-host prom rootfs tag-plugin: deps
	@$(STAGE) $@

# The stages that need no toolchain, built beside it: those of the
# target make was asked for; and after it, two chains of the stages
# that need it, side by side (what they need of each other is built
# early in the other chain)
BESIDE_TOOLCHAIN := qemu kernel perf-host
THEN_TOOLCHAIN := --then "busybox papi prom tag-plugin" "libpfm4 elfutils perf"
all: BESIDE_TOOLCHAIN := qemu kernel perf-host qemu-baseline
test: BESIDE_TOOLCHAIN := qemu kernel perf-host kernel-debug
check: BESIDE_TOOLCHAIN := qemu
side-by-side: deps
	@tools/build/side-by-side $(THEN_TOOLCHAIN) $(BESIDE_TOOLCHAIN)

ROUNDS ?= 7
bench-qemu: toolchain qemu qemu-baseline
	@tools/bench/qemu-pmu $(ROUNDS)

bench-qemu-parts: toolchain qemu-baseline qemu-parts
	@tools/bench/qemu-parts $(ROUNDS)

bench-perf: all
	@tools/bench/perf-overhead $(ROUNDS)

bench-record: all
	@tools/bench/perf-record-rate $(or $(RECORD_ROUNDS),3)

bench-read: all
	@tools/bench/read-cost

bench-mibench: all
	@$(if $(MIBENCH_DIR),,echo "make bench-mibench: set MIBENCH_DIR to a MiBench tree" >&2; exit 2)
	@tools/bench/mibench-cost "$(MIBENCH_DIR)" $(if $(filter command line,$(origin ROUNDS)),$(ROUNDS),3) \
		$(if $(filter command line,$(origin LIMIT)),$(LIMIT),300)

bench-trace: all
	@$(if $(MIBENCH_DIR),,echo "make bench-trace: set MIBENCH_DIR to a MiBench tree" >&2; exit 2)
	@tools/bench/trace-cost "$(MIBENCH_DIR)" $(if $(filter command line,$(origin ROUNDS)),$(ROUNDS),3) \
		$(if $(filter command line,$(origin LIMIT)),$(LIMIT),300)

bench-trace-decode:
	@tools/bench/trace-decode $(or $(MTAGS),5)

bench-profile: all
	@$(if $(PROG),,echo 'make bench-profile: set PROG="BINARY [ARGS]", a guest program (e.g. a MiBench one)' >&2; exit 2)
	@tools/bench/model-profile --rounds $(if $(filter command line,$(origin ROUNDS)),$(ROUNDS),5) \
		$(foreach f,$(ADD),--add $(f)) $(PROG)

# MiBench in the guest under perf stat (tools/mibench/mibench, Documentation/mibench.md)
MIBENCH_INPUT ?= small
MIBENCH_MACHINE ?= paper
MIBENCH_FP ?= hard
MIBENCH_LINK ?= static
MIBENCH_OUT ?= $(TOP)/build/mibench$(if $(filter soft,$(MIBENCH_FP)),-soft)$(if $(filter dynamic,$(MIBENCH_LINK)),-dynamic)
RUNS ?= 10
CPUS_LIST ?= 1 2 4
JOBS ?= $(shell nproc)
mibench: all
	@tools/mibench/mibench all --tree "$(MIBENCH_DIR)" --out "$(MIBENCH_OUT)" \
		--fp $(MIBENCH_FP) --link $(MIBENCH_LINK) --input $(MIBENCH_INPUT) --machine $(MIBENCH_MACHINE) --runs $(RUNS) \
		--cpus "$(if $(filter command line environment,$(origin CPUS)),$(CPUS),$(CPUS_LIST))" --jobs $(JOBS) \
		$(if $(filter 1,$(DETERMINISTIC)),--deterministic)

# The cache design-space sweep (tools/sweep/leon3-sweep, Documentation/sweep.md)
SWEEP_OUT ?= $(TOP)/build/sweep
SWEEP_WORKLOADS ?= stream:6:100 stream:12:100 chase:8:200000
SWEEP_GEOMETRIES ?= d2kx2 d4kx2 d8kx2 d4kx4 d8kx4 d16kx4
SWEEP_COMPETITORS ?= 0 1 3
SWEEP_REPEATS ?= 5
sweep: all
	@$(if $(MIBENCH_DIR),tools/mibench/mibench build --tree "$(MIBENCH_DIR)" --out "$(MIBENCH_OUT)" \
		--fp $(MIBENCH_FP) --link $(MIBENCH_LINK) &&) \
	tools/sweep/leon3-sweep plan --out "$(SWEEP_OUT)" --jobs $(JOBS) --repeats $(SWEEP_REPEATS) \
		--competitors "$(SWEEP_COMPETITORS)" $(foreach g,$(SWEEP_GEOMETRIES),--geometry $(g)) \
		$(foreach w,$(SWEEP_WORKLOADS),--workload $(w)) \
		$(if $(MIBENCH_DIR),--mibench "$(MIBENCH_OUT)" --workload mibench) \
		$(if $(filter 1,$(SHADOW)),--shadow) $(if $(SWEEP_SCOPES),--scopes "$(SWEEP_SCOPES)") && \
	$(if $(filter 1,$(SLURM)),tools/sweep/leon3-sweep slurm --submit --out "$(SWEEP_OUT)", \
	{ tools/sweep/leon3-sweep run --out "$(SWEEP_OUT)" --jobs $(JOBS) \
		$(if $(SSHLOGINFILE),--sshloginfile "$(SSHLOGINFILE)"); \
	  tools/sweep/leon3-sweep merge --out "$(SWEEP_OUT)"; })

# Vince Weaver's perf_event_tests in the guest (tools/perf-event-tests/pet,
# Documentation/driver.md, "perf_event_tests")
PET_OUT ?= $(TOP)/build/perf-event-tests
PET_LIMIT ?= 600
perf-event-tests: all
	@tools/perf-event-tests/pet all --tree "$(PET_DIR)" --out "$(PET_OUT)" --limit $(PET_LIMIT) \
		$(if $(filter 1,$(PET_ICOUNT)),--qemu-opt=-icount --qemu-opt=shift=5$(,)sleep=off) \
		--cpus "$(if $(filter command line environment,$(origin CPUS)),$(CPUS),1 2)" --jobs $(JOBS)

# Also part of make test; here alone, e.g. longer: LEON3_FUZZ_SECONDS=600
fuzz: all
	@tests/run tests/fuzz

module: kernel
	@tools/build/module

module-debug: kernel-debug
	@tools/build/module debug

# The QEMU series as a git branch (Documentation/building.md, "Working on
# the QEMU series")
qemu-git: deps
	@tools/build/qemu-git

qemu-series:
	@tools/build/qemu-series && tools/build/qemu-series --rework --quiet

qemu-series-check: deps toolchain
	@tools/build/qemu-series-check

# The kernel series as git branches, one a group of maintainers
# (Documentation/building.md, "Working on the kernel series")
kernel-git: deps
	@tools/build/kernel-git

kernel-series:
	@tools/build/kernel-series && tools/build/kernel-series --rework --quiet && \
		tools/build/kernel-series --groups

toolchain-env: toolchain
	@echo 'export PATH="$(TOP)/build/toolchain/bin:$$PATH"'

kernel-menuconfig: deps
	@tools/build/kernel-menuconfig

check: deps side-by-side toolchain qemu busybox perf papi prom tag-plugin
	@tests/run tests/host tests/guest-binaries

test: side-by-side $(TESTED) kernel-debug module-debug
	@tests/run tests/host tests/guest-binaries tests/baremetal tests/boot tests/pmu tests/mibench tests/sweep tests/fuzz

run: all
	tools/leon3-run --cpus $(CPUS) --mem $(MEM) --caches $(CACHES) $(foreach f,$(ADD),--add $(f))

# build/qemu-git and build/linux-git are where QEMU and kernel work
# happens: they stay (they may hold commits not yet exported with make
# qemu-series or make kernel-series)
KEPT := qemu-git linux-git
clean:
	@kept=$$(cd build 2>/dev/null && ls -d $(KEPT) 2>/dev/null); \
	if [ -n "$$kept" ]; then \
		find build -mindepth 1 -maxdepth 1 $(foreach k,$(KEPT),! -name $(k)) -exec rm -rf {} +; \
		echo "make clean: kept $$(printf 'build/%s ' $$kept)(your branches; remove them yourself)"; \
	else rm -rf build; fi

cache-clean:
	rm -rf "$(CACHE_DIR)"
