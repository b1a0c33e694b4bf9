# SPDX-License-Identifier: GPL-2.0-or-later
# check-asm.awk: does x86_64 -S output keep the directive contract of
# doc/directives.md?  Prints one line per violation and exits non-zero.
#
#  - .kcfi_version comes first and once; ids are defined before use and
#    never redefined with another text;
#  - .kcfi_func NAME is followed by the label NAME before any instruction
#    or the next .kcfi_func;
#  - a call-site directive is followed (skipping #APP/#NO_APP, comments,
#    .loc and .cfi_*) by a branch of the right kind, and every indirect
#    branch GCC wrote (outside #APP) carries one.

function err(msg) {
	printf "%s:%d: %s\n    %s\n", FILENAME, FNR, msg, $0
	bad = 1
}
function indirect(ins) {
	return ins ~ /^(notrack[ \t]+)?(call|jmp)[a-z]*[ \t]+\*/ ||
	       ins ~ /^(call|jmp)[a-z]*[ \t]+__x86_(indirect|return)_thunk_[a-z0-9]+$/
}
function branch(ins) { return ins ~ /^(notrack[ \t]+)?(call|jmp)/ }
function unquote(s) { if (s ~ /^".*"$/) s = substr(s, 2, length(s) - 2); return s }

{
	line = $0
	sub(/^[ \t]+/, "", line)
	sub(/[ \t]+$/, "", line)
}
line == "" { next }
line == "#APP" { app = 1; next }
line == "#NO_APP" { app = 0; next }
line ~ /^#/ || line ~ /^\.loc([ \t]|$)/ || line ~ /^\.loc_mark_labels/ || line ~ /^\.cfi_/ { next }

line ~ /^\.kcfi_/ {
	split(line, w, /[ \t]*,[ \t]*|[ \t]+/)
	op = w[1]
	if (op == ".kcfi_version") {
		if (seen) err(".kcfi_version is not the first kcfi directive")
		version = 1
	} else if (!version && op != ".kcfi_require_plugin")
		err(op " before .kcfi_version")
	seen = 1
	if (op == ".kcfi_type") {
		text = line
		sub(/^[^"]*/, "", text)
		if (w[2] in types && types[w[2]] != text) err("id " w[2] " redefined")
		types[w[2]] = text
	} else if (op == ".kcfi_func") {
		if (want != "") err(".kcfi_func before the definition of " want)
		want = unquote(w[2])
		prefix = 0
		if (w[3] != "" && !(w[3] in types)) err("undefined id " w[3])
	} else if (op == ".kcfi_extern") {
		if (!(w[3] in types)) err("undefined id " w[3])
	} else if (op ~ /^\.kcfi_(call|call_unchecked|call_direct|branch_nocall)$/) {
		if (pending != "") err("two call-site directives in a row")
		if (op == ".kcfi_call" && !(w[2] in types)) err("undefined id " w[2])
		pending = op
	} else if (op == ".kcfi_conversion") {
		q = "\"([^\"\\\\]|\\\\.)*\""
		if (line !~ ("^\\.kcfi_conversion ([^ ,\"]+|" q "), " q ", " q ", " q ", [0-9]+, " q ", (cast|init|assign|arg|return|void\\*|union|decl)$"))
			err("malformed .kcfi_conversion")
	} else if (op != ".kcfi_version" && op != ".kcfi_require_plugin")
		err("unknown directive " op)
	next
}

# Labels start in column 0.
$0 ~ /^[^ \t][^ \t]*:/ {
	if (pending != "") err(pending " followed by a label")
	label = $0
	sub(/:.*/, "", label)
	if (unquote(label) == want) want = ""
	else if (want != "" && label ~ /^\.LPFE/) prefix = 1
	next
}
line ~ /^\./ {
	if (pending != "") err(pending " followed by a directive")
	next
}
{
	if (pending != "") {
		ok = pending == ".kcfi_call_direct" ? branch(line) : indirect(line)
		if (!ok) err(pending " not followed by the right kind of branch")
		pending = ""
	} else if (!app && indirect(line))
		err("indirect branch without a directive")
	# Only the patchable prefix (after .LPFEn:) may come before NAME:.
	if (!app && want != "" && !(prefix && line ~ /^nop/))
		err("instruction before the label of " want)
}

END {
	if (pending != "") err(pending " at the end of the file")
	if (want != "") err("no definition for .kcfi_func " want)
	exit bad
}
