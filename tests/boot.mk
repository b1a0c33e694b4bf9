# tests/boot/: the boot matrix console judge and its kernel audit on arm
# (the boot itself is make boot-check).
BOOT_TESTS = tests/boot/judge.sh tests/boot/audit.sh
TESTS += $(BOOT_TESTS)
EXTRA_DIST += $(BOOT_TESTS)
