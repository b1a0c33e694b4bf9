# tests/boot/: the boot matrix console judge (the boot itself is make boot-check).
BOOT_TESTS = tests/boot/judge.sh tests/boot/kunit.sh
TESTS += $(BOOT_TESTS)
EXTRA_DIST += $(BOOT_TESTS)
