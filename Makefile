# nosec_exec: top-level build.  `make` builds the module, the library, the
# CLI and the tests; `make check` runs the tests in a QEMU guest; `make
# demo` shows the main job there.  KDIR selects the kernel build tree.

KVER ?= $(shell $(CURDIR)/qemu/kver 2>/dev/null)
KDIR ?= $(firstword $(wildcard /lib/modules/$(KVER)/build \
			       /usr/src/linux-headers-$(KVER)) \
		    /lib/modules/$(KVER)/build)

.PHONY: all module userspace tests clean deps check demo check-debug stress bench

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

check: deps
	$(MAKE) all
	qemu/run --timeout 1200 -- /nosec/tests/run-tests

# The suite plus the stress and full fuzz cases, on the stock kernel.
stress: deps
	$(MAKE) all
	qemu/run --timeout 2700 --append softlockup_panic=1 -- \
		/nosec/tests/run-tests --stress

demo: deps
	$(MAKE) all
	qemu/run --timeout 600 -- /nosec/tests/demo.sh

# The suite on a debug kernel (KASAN, lockdep, kmemleak...) built from
# Debian's linux-source-6.1, cached outside the tree.
check-debug:
	qemu/deps --debug
	$(MAKE) userspace tests
	qemu/check-debug

# What the module costs: stock kernel, noise module and nosec_exec in
# alternating rounds in one boot; writes bench/results.json.
bench: deps
	$(MAKE) all
	$(MAKE) -C bench KDIR=$(KDIR)
	bench/run
