# SPDX-License-Identifier: GPL-2.0-or-later
# csmith's programs call their functions directly (func_N(...)), so kcfi-gcc
# would have no check to place in them.  This turns every call into a call
# through a writable global function pointer of the function's own type
# (fp_func_N, external linkage, so no optimizer may assume it unchanged:
# its load is a target load among csmith's stores to globals), keeping
# the program's meaning: fp_func_N always points at func_N.
#   awk -f csmith-indirect.awk csmith.c > indirect.c
# The forward declarations block gets one pointer after each prototype;
# definitions (lines starting with "static") keep their names.
/^\/\* --- FORWARD DECLARATIONS --- \*\/$/ { decls = 1; print; next }
decls && /^static .*func_[0-9]+\(.*\);$/ {
	print
	p = $0
	sub(/^static /, "", p)
	match(p, /func_[0-9]+\(/)
	name = substr(p, RSTART, RLENGTH - 1)
	sub(/;$/, "", p)
	sub(name "\\(", "(*fp_" name ")(", p)
	print p " = " name ";"
	next
}
decls && /^$/ { decls = 2 }
# (POSIX awk: mawk, Debian's default, has no gensub or \<.)
decls == 2 && !/^static / {
	out = ""
	while (match($0, /func_[0-9]+\(/)) {
		pre = substr($0, 1, RSTART - 1)
		if (pre ~ /[A-Za-z0-9_]$/) out = out pre substr($0, RSTART, RLENGTH)
		else out = out pre "fp_" substr($0, RSTART, RLENGTH)
		$0 = substr($0, RSTART + RLENGTH)
	}
	$0 = out $0
}
{ print }
