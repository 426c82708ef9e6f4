# The test lanes, each in a QEMU guest: included by the top Makefile, so
# `make check`, `make test-all` and the rest run from the top of the tree.
# What the lanes do and how long they take: docs/testing.md.

.PHONY: fault-module check stress demo test-all check-real check-kernels \
	check-lsm check-native check-debug check-debug-quick check-secureboot \
	check-secureboot-quick check-arm64 check-arm64-quick check-arm64-bti bench \
	check-deb13 check-deb13-quick deps-check-deb13-quick check-canary \
	bench-quick bench-profile bench-build

# The test build of the module, with the fault-injection knobs the suite
# uses (Kbuild: NOSEC_FAULT_INJECT), in a tree of its own: what `make`
# builds, nosec_exec.ko, has none.
fault-module:
	qemu/build-modules --fault-inject-only $(KDIR) $(CURDIR)/tests/modules

# make check CASE=NAME runs only the cases whose name contains NAME;
# FILE=NAME only those of tests/NAME_test.c (a kselftest program each).
check: deps
	$(MAKE) all fault-module
	qemu/run --timeout 1200 -- \
		env NOSEC_INFLIGHT_ROUNDS=$${NOSEC_INFLIGHT_ROUNDS:-200} \
		/nosec/tests/run-tests $(if $(FILE),--file $(FILE)) $(CASE)

# The suite plus the stress and full fuzz cases, on the stock kernel.
stress: deps
	$(MAKE) all fault-module
	qemu/run --timeout 2700 --append softlockup_panic=1 -- \
		/nosec/tests/run-tests --stress

demo: deps
	$(MAKE) all
	qemu/run --timeout 600 -- /nosec/tests/demo.sh

# The test command (README, .ci/run): every lane below, one after the
# other; the results in results/last/ (qemu/test-all --help).
test-all:
	qemu/test-all

# Real Debian programs (su, passwd, mount, ping, gcc, python, bwrap,
# AppArmor...) in a guest booted on this machine's own root filesystem;
# then the Debian packages installed there with apt, DKMS and modprobe.
check-real:
	qemu/deps --real
	$(MAKE) all
	tools/make-deb
	qemu/check-real

# A machine with UEFI Secure Boot on (OVMF, shim, GRUB, Debian's signed
# kernels, lockdown): the packages installed, DKMS's key enrolled through
# MokManager, modprobe, the suite; on 6.1, then on the newest 6.12.
# check-secureboot-quick (part of the test command): 6.1, and the suite's
# programs that cover every hook.
check-secureboot:
	qemu/deps --real --secureboot
	$(MAKE) all fault-module
	tools/make-deb
	qemu/check-secureboot

check-secureboot-quick:
	qemu/deps --real --secureboot
	$(MAKE) all fault-module
	tools/make-deb
	qemu/check-secureboot --quick

# The suite on every kernel Debian ships for amd64 (6.1 generic, cloud and
# rt, the newest 6.12; Debian 13's 6.12 and newest kernel, generic, cloud
# and rt), each fetched into the cache, not installed.
check-kernels:
	qemu/deps --kernels --deb13
	$(MAKE) userspace tests
	qemu/check-kernels

# Debian 13's kernels, the quick form, in the test command (run beside its
# last lanes, qemu/test-all): the newest kernel Debian 13 ships (7.3, from
# trixie-backports) on amd64 and arm64, each module built with gcc-14 in a
# Debian 13 root (qemu/buildroot); the whole suite on amd64 (the test
# command's one kernel newer than 6.1 with the module-load programs), on
# arm64 the programs that pass every hook; then the LSM cases on 7.3,
# booted with SELinux enforcing and with AppArmor (check-lsm's boots of
# 7.3, which the test command leaves to this lane).  Debian 13's own 6.12
# (bookworm's 6.12 built by gcc-14), and the whole suite on each: make
# check-kernels (make check-deb13), make check-arm64, make check-lsm.
# deps-check-deb13-quick installs what it needs, before it starts beside
# other lanes.
DEB13_DEPS = --kernels --arm64 --lsm --deb13
deps-check-deb13-quick:
	qemu/deps $(DEB13_DEPS)

check-deb13-quick: deps-check-deb13-quick
	$(MAKE) userspace tests
	d=$$(qemu/kver --newest-deb13) && a=$${d%-amd64}-arm64 && rc=0 && \
	{ NOSEC_KERNELS_QUICK=$$a qemu/check-kernels $$d $$a || rc=1; } && \
	{ NOSEC_LSM_SKIP= qemu/check-lsm --no-series $$d || rc=1; } && exit $$rc

# The whole form of check-deb13-quick's suite: the whole suite on every
# amd64 kernel Debian 13 ships (its own 6.12; 7.3 generic, cloud and rt),
# and the foreign module refused (results/deb13.txt: qemu/test-all --out
# DIR check-deb13).  arm64's: make check-arm64; the LSMs': make check-lsm.
check-deb13:
	qemu/deps $(DEB13_DEPS)
	$(MAKE) userspace tests
	d=$$(qemu/kver --newest-deb13) && d612=$$(qemu/kver --newest-deb13-6.12) && \
	k=$${d%-amd64} && qemu/check-kernels $$d612 $$d $$k-cloud-amd64 $$k-rt-amd64

# The canary: the newest kernel of Debian's archive (sid's, or Debian 13's
# backports, whichever is newer), whatever it is when this runs (the next
# kernel Debian's users will get), its module built with the gcc it was
# built with in a root of its release, booted for the programs that pass
# every hook: a
# kernel change that breaks the module shows here before a user's DKMS
# meets it.  Not in the test command, which must not change with the
# archive: run it before a release and when sid's kernel moves
# (docs/testing.md).
check-canary:
	qemu/deps --kernels --deb13
	$(MAKE) userspace tests
	s=$$(qemu/kver --newest-sid) && t=$$(qemu/kver --newest-deb13) && \
	k=$$(printf '%s\n' $$s $$t | sort -V | tail -n 1) && \
	r=sid && if [ "$$k" = "$$t" ]; then r=trixie; fi && \
	echo "# check-canary: $$k ($$r; sid: $$s, Debian 13: $$t)" && \
	NOSEC_KERNEL_RELEASE=$$r NOSEC_KERNELS_QUICK=$$k qemu/check-kernels $$k

# The suite on Debian's arm64 kernels (6.1 and the newest 6.12, fetched
# into the cache), under qemu-system-aarch64 -M virt -cpu max (TCG), the
# module, nosec-run and the tests cross-built.  check-arm64-quick (part
# of the test command, whose time it must fit): 6.1 only (the ABI of the
# installed linux-headers-amd64, on arm64), and the programs that pass
# every hook and the architecture's code (the syscall ABIs, the ioctl's
# way back into execveat, the AArch32 programs), without the module-load
# series of failsafe, lifecycle and stats.
ARM64_QUICK_FILES = nosec_exec,restrict,force,nosec_run,restrict_all,held,bypass,scope,watchers
check-arm64:
	qemu/deps --kernels --arm64 --deb13
	qemu/check-kernels --arm64

check-arm64-quick:
	qemu/deps --kernels --arm64
	k=$$(qemu/kver) && qemu/check-kernels $${k%-amd64}-arm64 -- \
		--file $(ARM64_QUICK_FILES)

# The suite on arm64 kernels that check their own branch targets (BTI),
# which no Debian kernel does: linux-source-6.12 and Debian 13's
# linux-source-7.3 built by Clang into the cache (qemu/bti-kernel; 7.3
# by Debian 13's LLVM, in a root of its own), the module too.
check-arm64-bti:
	qemu/deps --kernels --arm64 --arm64-bti --deb13
	qemu/check-arm64-bti

# The LSM cases on 6.1, the newest 6.12 and Debian 13's newest kernel,
# booted once with SELinux enforcing (a policy of our own, tests/selinux/)
# and once with AppArmor, Landlock and TOMOYO stacked as Debian boots
# them; then on the kernel with our series, with Smack as well.
check-lsm:
	qemu/deps --lsm --native --deb13
	$(MAKE) userspace tests
	qemu/check-lsm

# Our series (upstream/) on Debian's linux-source-7.3 (qemu/native-kernel
# --series), built once into
# the cache: its kselftests through the kernel's runner and the
# project's suite, with no module.
check-native:
	qemu/deps --native
	$(MAKE) userspace tests
	qemu/check-native

# The suite on a debug kernel (KASAN, lockdep, kmemleak...) built from
# Debian's linux-source-6.1, cached outside the tree.
check-debug:
	qemu/deps --debug
	$(MAKE) userspace tests
	qemu/check-debug

# The same kernel and the whole suite, without the stress cases.
check-debug-quick:
	qemu/deps --debug
	$(MAKE) userspace tests
	qemu/check-debug --quick

# What the module costs, in guest instructions counted by a QEMU plugin
# (bench/): on 6.1, the newest 6.12 and Debian 13's newest kernel (7.3),
# three boots each, the stock kernel, the noise module and nosec_exec
# taking turns in each; writes bench/results/KVER.json; the same on
# arm64's newest 6.12 and 7.3 (everything the guest runs cross-built,
# bench/run builds it); then the execs alone
# on the kernel with our series (bench/results/native-SERIES.json), the
# limit the module's figures are set against.  bench-quick: one short
# boot on 6.1 that fails when a ratio passes its bound (part of the test
# command).  bench-profile: where each kind of exec spends its
# instructions.
bench: bench-build
	qemu/deps --native --arm64 --deb13
	bench/run
	k=$$(qemu/kver --newest-6.12) && bench/run --kernel $$k && \
	bench/run --kernel $${k%-amd64}-arm64
	k=$$(qemu/kver --newest-deb13) && bench/run --kernel $$k && \
	bench/run --kernel $${k%-amd64}-arm64
	bench/run --native

bench-quick: bench-build
	bench/run --quick --gate

bench-profile: bench-build
	bench/run --profile

bench-build: deps
	$(MAKE) all
	$(MAKE) -C bench KDIR=$(KDIR)
