# tests/: each area keeps its own fragment.
include tests/typeids.mk
include tests/prepass.mk
include tests/asmpass.mk
include tests/cross.mk
include tests/differential.mk
include tests/fuzz-proto.mk
include tests/e2e.mk
include tests/golden.mk
include tests/audit.mk
include tests/fuzz/asm-fuzz.mk
include tests/hostile.mk
include tests/torture.mk
include tests/sanitizers.mk
include tests/boot.mk
include tests/asmline.mk
