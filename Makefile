# nosec_exec: top-level build.  `make` builds the module, the library, the
# CLI and the tests; `make check` runs the tests in a QEMU guest; `make
# demo` shows the main job there.  KDIR selects the kernel build tree.

# dkms.conf's PACKAGE_VERSION is the one place the version is written.
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' $(CURDIR)/dkms.conf)
KVER ?= $(shell $(CURDIR)/qemu/kver 2>/dev/null)
KDIR ?= $(firstword $(wildcard /lib/modules/$(KVER)/build \
			       /usr/src/linux-headers-$(KVER)) \
		    /lib/modules/$(KVER)/build)

.PHONY: all module userspace tests clean deps check demo test-all check-debug stress bench \
	bench-quick bench-profile bench-build \
	check-debug-quick check-kernels check-lsm check-real check-native fault-module \
	lint install uninstall modules_install dkms-build check-install deb

all: module userspace tests

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userspace:
	$(MAKE) -C userspace

tests: userspace
	$(MAKE) -C tests

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C userspace clean
	$(MAKE) -C tests clean
	$(MAKE) -C bench clean KDIR=$(KDIR)

# Install what the build and the guest need (apt-get, as root).
deps:
	qemu/deps

# The test build of the module, with the fault-injection knobs the suite
# uses (Kbuild: NOSEC_FAULT_INJECT), in a tree of its own: what `make`
# builds, nosec_exec.ko, has none.
fault-module:
	qemu/build-modules --fault-inject-only $(KDIR) $(CURDIR)/tests/modules

# make check CASE=NAME runs only the cases whose name contains NAME;
# FILE=NAME only those of tests/NAME.c (the others are listed as skipped).
check: deps
	$(MAKE) all fault-module
	qemu/run --timeout 1200 -- /nosec/tests/run-tests \
		$(if $(FILE),--file $(FILE)) $(CASE)

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

# The suite on every kernel Debian ships for amd64 (6.1 generic, cloud and
# rt, the newest 6.12), each fetched into the cache, not installed.
check-kernels:
	qemu/deps --kernels
	$(MAKE) userspace tests
	qemu/check-kernels

# The LSM cases on 6.1 and the newest 6.12, booted once with SELinux
# enforcing (a policy of our own, tests/selinux/) and once with AppArmor,
# Landlock and TOMOYO stacked as Debian boots them; then on the kernel
# with our series, with Smack as well.
check-lsm:
	qemu/deps --lsm --native
	$(MAKE) userspace tests
	qemu/check-lsm

# Our series (upstream/) on Debian's linux-source-6.12, built once into
# the cache: its kselftests and the project's suite, with no module.
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
# (bench/): on 6.1 and on the newest 6.12, three boots each, the stock
# kernel, the noise module and nosec_exec taking turns in each; writes
# bench/results/KVER.json; then the execs alone on the kernel with our
# series (bench/results/native-6.12.json), the limit the module's figures
# are set against.  bench-quick: one short boot on 6.1 that fails
# when a ratio passes its bound (part of the test command).
# bench-profile: where each kind of exec spends its instructions.
bench: bench-build
	qemu/deps --native
	bench/run
	bench/run --kernel $$(qemu/kver --newest-6.12)
	bench/run --native

bench-quick: bench-build
	bench/run --quick --gate

bench-profile: bench-build
	bench/run --profile

bench-build: deps
	$(MAKE) all
	$(MAKE) -C bench KDIR=$(KDIR)

# Static checks: checkpatch, sparse, kernel-doc, shellcheck, cppcheck,
# mandoc and the man pages' examples (tools/lint).
lint:
	qemu/deps --lint
	$(MAKE) userspace
	KVER=$(KVER) KDIR=$(KDIR) tools/lint

# Install the library, headers, pkg-config file, CLI and man pages.
# DESTDIR stages the tree; PREFIX is where it will live.  The module goes
# through Kbuild: make modules_install INSTALL_MOD_PATH=..., or DKMS.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
MAN3_LINKS = execveat_nosecurity.3 fexecve_nosecurity.3
MAN2_LINKS = PR_GET_RESTRICT.2const PR_SET_FORCE_EXECVE_NOSECURITY.2const \
	     PR_GET_FORCE_EXECVE_NOSECURITY.2const

install: userspace
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
		$(DESTDIR)$(INCLUDEDIR)/linux $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man2 \
		$(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(MANDIR)/man4
	install -m 755 userspace/nosec-run $(DESTDIR)$(BINDIR)/
	install -m 644 userspace/libnosec.a $(DESTDIR)$(LIBDIR)/
	install -m 755 userspace/libnosec.so.1.1.0 $(DESTDIR)$(LIBDIR)/
	ln -sf libnosec.so.1.1.0 $(DESTDIR)$(LIBDIR)/libnosec.so.1
	ln -sf libnosec.so.1 $(DESTDIR)$(LIBDIR)/libnosec.so
	install -m 644 include/nosec.h $(DESTDIR)$(INCLUDEDIR)/
	install -m 644 include/uapi/linux/nosec_exec.h $(DESTDIR)$(INCLUDEDIR)/linux/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    userspace/libnosec.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/libnosec.pc
	for page in man/nosec-run.1 man/execve_nosecurity.3 man/nosec_exec.4 \
		    man/PR_RESTRICT_ME.2const; do \
		sect=$${page##*.}; sect=$${sect%const}; \
		sed 's|@VERSION@|$(VERSION)|' $$page \
			>$(DESTDIR)$(MANDIR)/man$$sect/$${page#man/} || exit 1; \
	done
	for link in $(MAN3_LINKS); do \
		ln -sf execve_nosecurity.3 $(DESTDIR)$(MANDIR)/man3/$$link; done
	for link in $(MAN2_LINKS); do \
		ln -sf PR_RESTRICT_ME.2const $(DESTDIR)$(MANDIR)/man2/$$link; done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/nosec-run \
	      $(DESTDIR)$(LIBDIR)/libnosec.a $(DESTDIR)$(LIBDIR)/libnosec.so \
	      $(DESTDIR)$(LIBDIR)/libnosec.so.1 \
	      $(DESTDIR)$(LIBDIR)/libnosec.so.1.1.0 \
	      $(DESTDIR)$(INCLUDEDIR)/nosec.h \
	      $(DESTDIR)$(INCLUDEDIR)/linux/nosec_exec.h \
	      $(DESTDIR)$(PKGCONFIGDIR)/libnosec.pc \
	      $(DESTDIR)$(MANDIR)/man1/nosec-run.1 \
	      $(DESTDIR)$(MANDIR)/man3/execve_nosecurity.3 \
	      $(DESTDIR)$(MANDIR)/man4/nosec_exec.4 \
	      $(DESTDIR)$(MANDIR)/man2/PR_RESTRICT_ME.2const \
	      $(addprefix $(DESTDIR)$(MANDIR)/man3/,$(MAN3_LINKS)) \
	      $(addprefix $(DESTDIR)$(MANDIR)/man2/,$(MAN2_LINKS))

# make install into a staging tree, then a static link through pkg-config,
# the installed man pages linted, and make uninstall.
check-install: userspace
	tools/check-install

# Debian packages (nosec-exec-dkms, libnosec1, libnosec-dev, nosec-run)
# with dpkg-buildpackage, into dist/; lintian must find no error or warning.
deb:
	qemu/deps --real
	tools/make-deb

# For packagers: the module under INSTALL_MOD_PATH (Kbuild's own target).
modules_install:
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) \
		modules_install

# Build the module with DKMS against KVER's headers, as a distribution
# would, then unregister it.  Build only: nothing is installed under
# /lib/modules and nothing is loaded.  As root.
dkms-build:
	tools/dkms-build $(VERSION) $(KVER)
