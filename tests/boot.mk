# tests/boot/: the boot matrix console judge, its kernel audit on arm and
# make kunit-check's and make kselftest-check's reading of consoles (the
# boots are make boot-check, make kunit-check and make kselftest-check).
BOOT_TESTS = tests/boot/judge.sh tests/boot/audit.sh tests/boot/kunit.sh \
	tests/boot/objtool-layout.sh tests/boot/kselftest.sh
TESTS += $(BOOT_TESTS)
EXTRA_DIST += $(BOOT_TESTS) tests/boot/objtool-layout.s
