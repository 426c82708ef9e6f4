# nosec_exec: top-level build.  `make` builds the module, the library, the
# CLI and the tests; it installs and packages them.  The lanes that run in
# a QEMU guest (`make check`, `make demo`, `make test-all`...) are in
# qemu/lanes.mk, included below.  KDIR selects the kernel build tree.

# dkms.conf's PACKAGE_VERSION is the one place the version is written.
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' $(CURDIR)/dkms.conf)
KVER ?= $(shell $(CURDIR)/qemu/kver 2>/dev/null)
KDIR ?= $(firstword $(wildcard /lib/modules/$(KVER)/build \
			       /usr/src/linux-headers-$(KVER)) \
		    /lib/modules/$(KVER)/build)

.PHONY: all module userspace tests cross clean deps lint install uninstall \
	modules_install dkms-build dkms-build-arm64 check-install deb deb-arm64

all: module userspace tests

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userspace:
	$(MAKE) -C userspace

tests: userspace
	$(MAKE) -C tests

# The userspace and the test programs for the guests of another
# architecture, cross-built into build/ARCH/ from a copy of the sources
# (qemu/cross-build; this tree's own build is not touched):
# make cross ARCH=arm64.
cross:
	qemu/cross-build $(or $(ARCH),$(error make cross ARCH=arm64: name the architecture))

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C userspace clean
	$(MAKE) -C tests clean
	$(MAKE) -C bench clean KDIR=$(KDIR)

# Install what the build and the guest need (apt-get, as root).
deps:
	qemu/deps

# The test lanes, each in a QEMU guest (make check, check-kernels, ...,
# test-all): qemu/lanes.mk.
include qemu/lanes.mk

# Static checks: checkpatch, sparse, kernel-doc, shellcheck, cppcheck,
# mandoc and the man pages' examples (tools/lint); sparse for arm64 too,
# with the cross compiler (--arm64).
lint:
	qemu/deps --lint --arm64
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

# The same cross-built for arm64 (dpkg-buildpackage -a arm64 -B: libnosec1,
# libnosec-dev, nosec-run; nosec-exec-dkms is the one of dist/) into
# dist/arm64/; lintian as for deb.
deb-arm64:
	qemu/deps --real --arm64
	tools/make-deb --arch arm64

# For packagers: the module under INSTALL_MOD_PATH (Kbuild's own target).
modules_install:
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) \
		modules_install

# Build the module with DKMS against KVER's headers, as a distribution
# would, then unregister it.  Build only: nothing is installed under
# /lib/modules and nothing is loaded.  As root.
dkms-build:
	tools/dkms-build $(VERSION) $(KVER)

# nosec-exec-dkms as make deb built it (its /usr/src tree, dpkg-deb -x)
# built by DKMS for Debian's arm64 6.1 and newest 6.12, cross-compiled
# against their headers from the cache (qemu/kernel), then unregistered.
# As root.
dkms-build-arm64: deb
	qemu/deps --arm64
	k61=$$(qemu/kver) && k612=$$(qemu/kver --newest-6.12) && \
	for k in $${k61%-amd64}-arm64 $${k612%-amd64}-arm64; do \
		tools/dkms-build --deb dist/nosec-exec-dkms_$(VERSION)_all.deb \
			$(VERSION) $$k || exit 1; \
	done
