# tests/boot/: the boot matrix console judge, its kernel audit on arm and
# make kunit-check's reading of consoles (the boots are make boot-check and
# make kunit-check).
BOOT_TESTS = tests/boot/judge.sh tests/boot/audit.sh tests/boot/kunit.sh \
	tests/boot/objtool-layout.sh
TESTS += $(BOOT_TESTS)
EXTRA_DIST += $(BOOT_TESTS) tests/boot/objtool-layout.s
