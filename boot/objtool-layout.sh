#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# objtool-layout.sh OBJECT < WARNINGS: sort objtool's "relocation to !ENDBR"
# warnings into those that come from where the linker happened to place
# code, and the rest.
#
# objtool (check.c, validate_ibt_insn) takes the address a relocation points
# at and warns when it is the first byte of an instruction that is not an
# ENDBR; an address in the middle of an instruction is skipped without a
# word.  Code that reads *past the end* of the object its relocation names
# (hibernate's memcpy of a whole page from core_restore_code, whose last
# word GCC loads as core_restore_code+0xff8) therefore draws the warning
# only when the unrelated function lying there has an instruction boundary
# at that byte -- a matter of layout, which any change in function sizes
# (KCFI preambles, another compiler version) moves.  Such a warning says
# nothing about the code it names.
#
# A warning is "layout" only when OBJECT shows all of:
#   - the instruction at FUNC+OFF carries a relocation against a named
#     symbol S (not a section symbol, which says nothing about bounds);
#   - S has a size, and the relocation's target lies outside [S, S+size);
#   - S is not the function the warning names as the destination.
# Anything else -- above all a reference inside a function's own bytes,
# which is what a misplaced preamble or a wrong alias would give -- is
# "unexplained".
#
# Output, one line per warning: "layout<TAB>warning<TAB>why" or
# "unexplained<TAB>warning<TAB>why".  Exit 0 when every warning is layout.
set -u
obj=${1:?usage: objtool-layout.sh OBJECT < warnings}
[ -r "$obj" ] || { echo "objtool-layout.sh: cannot read $obj" >&2; exit 2; }
syms=$(mktemp) && trap 'rm -f "$syms"' EXIT
nm -S --defined-only "$obj" > "$syms" || exit 2
status=0
while IFS= read -r w; do
	[ -n "$w" ] || continue
	if ! [[ $w =~ objtool:\ ([A-Za-z0-9_.]+)\+0x([0-9a-f]+):\ relocation\ to\ !ENDBR:\ ([A-Za-z0-9_.]+)\+0x([0-9a-f]+) ]]; then
		printf 'unexplained\t%s\t%s\n' "$w" "not an instruction's relocation to !ENDBR"
		status=1; continue
	fi
	func=${BASH_REMATCH[1]} off=$((16#${BASH_REMATCH[2]})) dest=${BASH_REMATCH[3]}
	faddr=$(awk -v f="$func" '$NF == f && NF == 4 { print $1; exit }' "$syms")
	if [ -z "$faddr" ]; then
		printf 'unexplained\t%s\t%s\n' "$w" "$func not found in $obj"
		status=1; continue
	fi
	at=$(printf '%x' $((16#$faddr + off)))
	# The relocations objdump prints under the instruction at FUNC+OFF.
	rel=$(objdump -dr --no-show-raw-insn --disassemble="$func" "$obj" | awk -v at="$at" '
		/^ *[0-9a-f]+:\t/ { a = $1; sub(/:$/, "", a); sub(/^0+/, "", a); cur = (a == at); next }
		cur && /R_X86_64_/ { print $(NF-1), $NF }')
	verdict=unexplained why=
	if [ -z "$rel" ]; then
		why="no relocation at $func+0x$(printf '%x' "$off")"
	fi
	while read -r type target; do
		[ -n "$type" ] || continue
		sym=${target%%[+-]*} add=0
		[[ $target =~ ([+-]0x[0-9a-f]+)$ ]] && add=$((${BASH_REMATCH[1]:0:1}16#${BASH_REMATCH[1]:3}))
		# PC-relative forms point 4 bytes past the field they fill.
		case $type in R_X86_64_PC32|R_X86_64_PLT32) add=$((add + 4)) ;; esac
		size=$(awk -v s="$sym" '$NF == s && NF == 4 { print $2; exit }' "$syms")
		if [[ $sym == .* ]]; then
			why="relocation against section symbol $target"
		elif [ -z "$size" ]; then
			why="$sym has no size in $obj"
		elif [ "$sym" = "$dest" ]; then
			why="$target points into $dest itself"
		elif [ "$add" -lt 0 ] || [ "$add" -ge $((16#$size)) ]; then
			verdict=layout
			why="$target reads $add bytes from $sym, which is $((16#$size)) bytes long"
			break
		else
			why="$target lies inside $sym"
		fi
	done <<< "$rel"
	[ "$verdict" = layout ] || status=1
	printf '%s\t%s\t%s\n' "$verdict" "$w" "$why"
done
exit $status
