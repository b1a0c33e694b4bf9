#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The boot matrix's console judge (boot/lib.sh) must fail every way a KCFI
# kernel can go wrong, not only pass the good case: hand-written consoles in
# the shape Linux 6.12 prints, checked against a fake vmlinux.
. "$top_srcdir/tests/lib.sh"
command -v bash >/dev/null || skip "bash not found"

# A fake vmlinux: N __cfi_ symbols, a __kcfi_traps section of M entries and
# LKDTM's __nocfi execute_location() whose indirect call is BODY.
fake_vmlinux() {
	{
		i=0
		while [ $i -lt "$1" ]; do echo "__cfi_f$i: nop"; i=$((i + 1)); done
		printf 'execute_location:\n%s\n\tret\n' "$3"
		echo '.section __kcfi_traps,"a"'
		echo ".fill $2, 4, 0"
	} > "$T/v.s" && ${5:-as} -o "$4" "$T/v.s"
}
X86_CALL=$(printf '\tcall *%%rbx')
fake_vmlinux 1200 300 "$X86_CALL" "$T/good.elf" || fail "cannot assemble the fake vmlinux"
fake_vmlinux 20 3 "$X86_CALL" "$T/thin.elf" || fail "cannot assemble the fake vmlinux"
fake_vmlinux 1200 300 "$(printf '\tmovl $1, %%r10d\n\tje 1f\n\tud2\n1:\tcall *%%rbx')" "$T/checked.elf" ||
	fail "cannot assemble the fake vmlinux"
if command -v riscv64-linux-gnu-as >/dev/null; then
	fake_vmlinux 1200 300 "$(printf '\tjalr s0')" "$T/riscv.elf" riscv64-linux-gnu-as ||
		fail "cannot assemble the fake riscv vmlinux"
fi

ID=$(fnv1a _ZTSFvPiE)
head_lines() {
	cat <<-EOT
	Run /init as init process
	kcfi-boot: init running
	kcfi-boot: triggering CFI_FORWARD_PROTO
	lkdtm: Performing direct entry CFI_FORWARD_PROTO
	lkdtm: Calling matched prototype ...
	lkdtm: Calling mismatched prototype ...
	EOT
}
report() { echo "CFI failure at lkdtm_indirect_call+0x19/0x1e (target: lkdtm_increment_int+0x0/0x7; expected type: $1)"; }
strict_tail() {
	echo 'Oops: invalid opcode: 0000 [#1]'
	echo 'kcfi-boot: child killed by signal 11'
	echo 'kcfi-boot: init done'
}

# judge_console NAME ARCH MODE VMLINUX: run the judge on $T/c.log; prints
# PASS/FAIL, and leaves PROOF in $T/NAME.proof.  $PROFILE, $CFI, $CONFIG
# (a .config) and $MODLOG (debian-cloud's module results) are passed on if set.
judge_console() {
	bash -c '
		log() { :; }
		. "$1/boot/lib.sh"
		arch_vars "$2" >/dev/null
		judge "$4" "$2" "$3" "$5" "$6" "$7" "$8" "$9" "${11}"
		echo "$verdict typeid=$typeid report=$report"
		for r in "${REASONS[@]}"; do echo "  $r"; done
		echo "$PROOF" > "${10}"' \
		judge "$top_srcdir" "$2" "$3" "$T/c.log" fnv1a "$4" "${PROFILE:-small}" \
		"${CFI:-kcfi}" "${CONFIG:-}" "$T/$1.proof" "${MODLOG:-}" > "$T/$1.out" 2>&1
	head -1 "$T/$1.out" | cut -d' ' -f1
}
# expect NAME ARCH MODE VMLINUX VERDICT [REASON]: and a FAIL must name REASON.
expect() {
	got=$(judge_console "$1" "$2" "$3" "$4")
	if [ "$got" != "$5" ]; then
		fail "$1: got '$got', wanted $5"; cat "$T/$1.out"
	elif [ -n "${6:-}" ] && ! grep -q "$6" "$T/$1.out"; then
		fail "$1: $got, but not because of '$6'"; cat "$T/$1.out"
	else
		pass "$1: $got"
	fi
}

{ head_lines; report "$ID"; strict_tail; } > "$T/c.log"
expect good-strict x86_64 strict "$T/good.elf" PASS
expect thin-vmlinux x86_64 strict "$T/thin.elf" FAIL "does not look like KCFI"
expect nocfi-ignored x86_64 strict "$T/checked.elf" FAIL "nocfi=checked"

{ head_lines; report 0x7e0c52a5; strict_tail; } > "$T/c.log"
expect wrong-type-id x86_64 strict "$T/good.elf" FAIL "type id 0x7e0c52a5"

{ echo "CFI failure at do_one_initcall+0x4/0x20 (target: foo+0x0/0x8; expected type: 0x12345678)";
  head_lines; report "$ID"; strict_tail; } > "$T/c.log"
expect spurious-before-init x86_64 strict "$T/good.elf" FAIL "spurious"

{ head_lines; echo "CFI failure at lkdtm_indirect_call+0x1c/0x26 (no target information)"; strict_tail; } > "$T/c.log"
expect no-target-info x86_64 strict "$T/good.elf" FAIL "without target"

{ head_lines | grep -v mismatched; report "$ID"; strict_tail; } > "$T/c.log"
expect matched-call-hung x86_64 strict "$T/good.elf" FAIL "matched call"

{ head_lines; echo 'lkdtm: FAIL: survived mismatched prototype function call!';
  echo 'kcfi-boot: child exited 0'; echo 'kcfi-boot: init done'; } > "$T/c.log"
expect no-cfi-at-all x86_64 strict "$T/good.elf" FAIL "no CFI failure report"

{ head_lines; report "$ID"; echo 'Oops: invalid opcode: 0000 [#1]';
  echo 'Kernel panic - not syncing: Attempted to kill init!'; } > "$T/c.log"
expect init-died x86_64 strict "$T/good.elf" FAIL "init did not survive"

# riscv: our beq has the expected id in rs1, which 6.12 prints; the register
# dump has it in t2 and the target's id in t1.  Clang's order (beq t1, t2)
# would make the report show the target's id: that must fail.
TARGET_ID=$(fnv1a _ZTSFiPiE)
riscv_oops() {
	report "$1"; echo 'Kernel BUG [#1]'
	echo " t1 : 00000000${TARGET_ID#0x} t2 : $2 s0 : ff60000000960000"
	echo 'Kernel panic - not syncing: Fatal exception in interrupt'
}
if [ -f "$T/riscv.elf" ]; then
{ head_lines; riscv_oops "$ID" "ffffffff${ID#0x}"; } > "$T/c.log"
expect riscv-nmi-panic riscv64 strict "$T/riscv.elf" PASS
{ head_lines; riscv_oops "$TARGET_ID" "ffffffff${ID#0x}"; } > "$T/c.log"
expect riscv-shows-target-type riscv64 strict "$T/riscv.elf" FAIL "type id $TARGET_ID"
{ head_lines; riscv_oops "$ID" "ffffffff12345678"; } > "$T/c.log"
expect riscv-wrong-t2 riscv64 strict "$T/riscv.elf" FAIL "t2 does not hold"
else
	echo "note: no riscv64-linux-gnu-as, riscv cases not run"
fi

{ head_lines; report "$ID"; echo 'WARNING: CPU: 0 PID: 15 at lkdtm_indirect_call+0x19/0x1e';
  echo 'lkdtm: FAIL: survived mismatched prototype function call!';
  echo 'kcfi-boot: child exited 0'; echo 'kcfi-boot: init done'; } > "$T/c.log"
expect good-permissive x86_64 permissive "$T/good.elf" PASS
expect permissive-but-strict-mode x86_64 strict "$T/good.elf" FAIL "mismatched call went through"

{ head_lines; report "$ID"; strict_tail; } > "$T/c.log"
expect strict-but-permissive-mode x86_64 permissive "$T/good.elf" FAIL "no WARNING"

{ echo 'Kernel panic - not syncing: No working init found.'; } > "$T/c.log"
expect no-init x86_64 strict "$T/good.elf" FAIL "init never ran"

# A kernel built with KUnit runs a few suites before init; all must finish
# and none may fail.
echo 'CONFIG_KUNIT=y' > "$T/kunit.config"
ktap() {
	echo 'KTAP version 1'; echo '1..2'
	echo '    KTAP version 1'; echo '    # Subtest: list-kunit-test'; echo '    1..2'
	echo '    ok 1 list_test_list_init'; echo "    $1 2 list_test_list_add"
	echo 'ok 1 list-kunit-test'
	[ "${2:-}" = crash ] && return
	echo '    KTAP version 1'; echo '    # Subtest: test_sort'; echo '    1..1'
	echo '    ok 1 test_sort'; echo 'ok 2 test_sort'
}
CONFIG=$T/kunit.config
{ ktap ok; head_lines; report "$ID"; strict_tail; } > "$T/c.log"
expect kunit-good x86_64 strict "$T/good.elf" PASS
grep -q 'kunit:ok=3,fail=0,skip=0,suites=2/2' "$T/kunit-good.proof" &&
	pass "kunit-good: the proof counts cases and suites" || fail "kunit-good: proof '$(cat "$T/kunit-good.proof")'"
{ ktap 'not ok'; head_lines; report "$ID"; strict_tail; } > "$T/c.log"
expect kunit-case-failed x86_64 strict "$T/good.elf" FAIL "1 case(s) failed: list-kunit-test.list_test_list_add"
{ ktap ok crash; echo 'Kernel panic - not syncing: Fatal exception'; } > "$T/c.log"
expect kunit-crashed x86_64 strict "$T/good.elf" FAIL "stopped after 1 of 2 suites (the last one started: list-kunit-test)"
{ head_lines; report "$ID"; strict_tail; } > "$T/c.log"
expect kunit-silent x86_64 strict "$T/good.elf" FAIL "no KUnit output"
# What the small kernels did before CONFIG_KUNIT_DEFAULT_ENABLED was set:
# allnoconfig turns KUnit's run at boot off, and the kernel says so.
{ head_lines; echo 'kunit: disabled'; report "$ID"; strict_tail; } > "$T/c.log"
expect kunit-disabled x86_64 strict "$T/good.elf" FAIL "disabled at boot (CONFIG_KUNIT_DEFAULT_ENABLED=n"
CONFIG=
{ head_lines; report "$ID"; strict_tail; } > "$T/c.log"
expect kunit-not-configured x86_64 strict "$T/good.elf" PASS

# The defconfig profile: SMP, the module and BPF steps, a clean log up to
# LKDTM, and (FineIBT configured) the kernel's word on the CFI mode it chose.
echo 'CONFIG_FINEIBT=y' > "$T/fineibt.config"
def_head() {
	echo 'smp: Brought up 1 node, 2 CPUs'
	echo "${1:-Using kCFI}"
	echo 'Run /init as init process'
	echo 'kcfi-boot: init running'
	echo 'kcfi_test: calls across the module boundary: ok'
	echo 'kcfi-boot: module ok'
	echo 'kcfi-boot: bpf ok'
	head_lines | sed -n '/triggering/,$p'
}
# FineIBT configured: ids are re-randomized at boot, each xor one seed; the
# report shows ours under the seed, and the oops's R10 is what the check
# computed (kCFI: target - expected; FineIBT: expected - target).
SEED=0x3c5a9e17
TID=$(fnv1a _ZTSFiPiE)
RID=$(printf '0x%08x' $(( ID ^ SEED )))
regs() {	# R10 for seed $2 and mode $1 (kcfi|fineibt)
	e=$(( ID ^ $2 )) t=$(( TID ^ $2 ))
	if [ "$1" = fineibt ]; then r=$(( (e - t) & 0xffffffff )); else r=$(( (t - e) & 0xffffffff )); fi
	printf 'RBP: ffffc90000013e48 R08: 0000000000000000 R09: 0000000000000001\n'
	printf 'R10: %016x R11: ffffffff81a2b3c0 R12: ffff888003c1d000\n' "$r"
}
PROFILE=defconfig CONFIG=$T/fineibt.config
{ def_head; report "$RID"; regs kcfi $SEED; strict_tail; } > "$T/c.log"
expect defconfig-good x86_64 strict "$T/good.elf" PASS
# printk lands inside init's lines (seen on SMP): still judged line by line.
{ def_head | sed -e 's/^kcfi-boot: init running$/&[    3.029909] kcfi_test: loading out-of-tree module taints kernel./' \
	-e 's/^kcfi-boot: triggering CFI_FORWARD_PROTO$/&[    3.1] lkdtm: Performing direct entry CFI_FORWARD_PROTO/' \
	-e '/^lkdtm: Performing direct/d' | sed 's/^/[    1.000000] /'
  report "$RID" | sed 's/^/[    3.2] /'; regs kcfi $SEED; strict_tail; } > "$T/c.log"
expect printk-inside-lines x86_64 strict "$T/good.elf" PASS
{ def_head; report "$RID"; strict_tail; } > "$T/c.log"
expect rand-no-registers x86_64 strict "$T/good.elf" FAIL "no R10"
# Another expected id under another seed: R10 gives it away.
OTHER=$(printf '0x%08x' $(( $(fnv1a _ZTSFvPcE) ^ SEED )))
{ def_head; report "$OTHER"; regs kcfi $SEED; strict_tail; } > "$T/c.log"
expect rand-wrong-id x86_64 strict "$T/good.elf" FAIL "is not $ID re-randomized"
{ def_head; report "$RID"; regs fineibt $SEED; strict_tail; } > "$T/c.log"
expect rand-sign-flipped x86_64 strict "$T/good.elf" FAIL "is not $ID re-randomized"
# The kernel did not re-randomize (seed 0): the id shows as it is.
{ def_head; report "$ID"; regs kcfi 0; strict_tail; } > "$T/c.log"
expect rand-seed-zero x86_64 strict "$T/good.elf" PASS
{ def_head | grep -v 'module ok'; report "$RID"; regs kcfi $SEED; strict_tail; } > "$T/c.log"
expect defconfig-no-module x86_64 strict "$T/good.elf" FAIL "test module"
{ def_head | grep -v 'bpf ok'; report "$RID"; regs kcfi $SEED; strict_tail; } > "$T/c.log"
expect defconfig-no-bpf x86_64 strict "$T/good.elf" FAIL "BPF"
{ def_head | sed 's/2 CPUs/1 CPU/'; report "$RID"; regs kcfi $SEED; strict_tail; } > "$T/c.log"
expect defconfig-one-cpu x86_64 strict "$T/good.elf" FAIL "2 CPUs"
{ def_head | sed '/module ok/a WARNING: CPU: 1 PID: 1 at kernel/module/main.c:100 load_module+0x1/0x2'
  report "$RID"; regs kcfi $SEED; strict_tail; } > "$T/c.log"
expect defconfig-warning-early x86_64 strict "$T/good.elf" FAIL "before LKDTM: WARNING"
{ def_head | grep -v 'Using kCFI'; report "$RID"; regs kcfi $SEED; strict_tail; } > "$T/c.log"
expect defconfig-not-rewritten x86_64 strict "$T/good.elf" FAIL "Using kCFI"
# After LKDTM's oops, a trace is aftermath and allowed.
{ def_head; report "$RID"; regs kcfi $SEED; echo 'Call Trace:'; strict_tail; } > "$T/c.log"
expect defconfig-trace-after x86_64 strict "$T/good.elf" PASS
# cfi=fineibt: the callee's preamble traps, with a re-randomized id.
fineibt_report() { echo "CFI failure at __cfi_lkdtm_increment_int+0xd/0x10 (target: lkdtm_increment_int+0x0/0x7; expected type: $RID)"; regs fineibt $SEED; }
CFI=fineibt
{ def_head 'Using FineIBT CFI'; fineibt_report; strict_tail; } > "$T/c.log"
expect fineibt-good x86_64 strict "$T/good.elf" PASS
{ def_head 'Using FineIBT CFI'; report "$RID"; regs kcfi $SEED; strict_tail; } > "$T/c.log"
expect fineibt-caller-trapped x86_64 strict "$T/good.elf" FAIL "no CFI failure report from __cfi_lkdtm_increment_int"
{ def_head; fineibt_report; strict_tail; } > "$T/c.log"
expect fineibt-stayed-kcfi x86_64 strict "$T/good.elf" FAIL "Using FineIBT CFI"

# debian-cloud: Debian's configuration (FineIBT configured, kCFI at boot);
# init loads every module, results on the second port ($MODLOG), instead of
# the test module.  Absent hardware passes; a failed load, an oops or a
# second CFI failure while loading do not.
CFI=kcfi PROFILE=debian-cloud MODLOG=$T/modules.log
cloud_head() {
	def_head | sed '/module ok/d; /calls across/d; /kcfi-boot: init running/a kcfi-boot: loading 3 modules (results on /dev/ttyS1)\
kcfi-boot: modules: 3 total, 1 loaded, 2 absent, 0 failed'
}
modlog() {
	echo 'kcfi-modload-try: crc32c_generic'; echo 'kcfi-modload: crc32c_generic loaded 0'
	echo 'kcfi-modload-try: hv_vmbus'; echo 'kcfi-modload: hv_vmbus absent ENODEV'
	echo 'kcfi-modload: hv_netvsc absent ENODEV via=hv_vmbus'
	echo "kcfi-modload-summary: total=3 loaded=${1:-1} absent=2 failed=${2:-0}"
}
{ cloud_head; report "$RID"; regs kcfi $SEED; strict_tail; } > "$T/c.log"
modlog > "$MODLOG"
expect cloud-good x86_64 strict "$T/good.elf" PASS
grep -q ' modules:total=3,loaded=1,absent=2,failed=0,explained=0' "$T/cloud-good.proof" &&
	pass "cloud-good: the proof counts the modules" || fail "cloud-good: proof '$(cat "$T/cloud-good.proof")'"
modlog | sed 's/crc32c_generic loaded 0/crc32c_generic failed EINVAL/' | sed 's/loaded=1 absent=2 failed=0/loaded=0 absent=2 failed=1/' > "$MODLOG"
expect cloud-module-failed x86_64 strict "$T/good.elf" FAIL "modules: 1 failed: crc32c_generic(EINVAL)"
modlog | sed '/summary/d' > "$MODLOG"
expect cloud-loading-died x86_64 strict "$T/good.elf" FAIL "modules: loading stopped after 3 modules"
rm -f "$MODLOG"
expect cloud-no-module-log x86_64 strict "$T/good.elf" FAIL "modules: no module results"
modlog > "$MODLOG"
{ cloud_head | sed '/kcfi-boot: loading/a CFI failure at crc32c_cra_init+0x10/0x20 (target: 0xffffffffc0001000; expected type: 0x12345678)\
Oops: invalid opcode: 0000 [#1] PREEMPT SMP NOPTI\
Call Trace:'; report "$RID"; regs kcfi $SEED; strict_tail; } > "$T/c.log"
expect cloud-cfi-in-module x86_64 strict "$T/good.elf" FAIL "2 CFI failures, expected 1"
grep -q 'before LKDTM: CFI failure\|before LKDTM: Oops' "$T/cloud-cfi-in-module.out" &&
	pass "cloud-cfi-in-module: the oops before LKDTM is named" || fail "cloud-cfi-in-module: $(cat "$T/cloud-cfi-in-module.out")"
finish
