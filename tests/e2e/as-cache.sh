#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kcfi-gcc remembers which `as` the compiler would run (pass_real_as in
# driver/kcfi-gcc.c) instead of asking `gcc -print-prog-name=as` on every
# compile.  The remembered answer is used while nothing that decides it has
# changed, and never once something has: a new `as` in a -B directory, an
# `as` that is no longer executable, another compiler binary, a corrupt entry.
# The compiler is a logging wrapper around the real one (KCFI_CC), and every
# -B `as` logs its name, so each step sees whether gcc was asked and which
# assembler kcfi-as ran behind the checks.
. "$top_srcdir/tests/e2e/lib.sh"

real_cc=${PLUGIN_CC:-gcc}
real_cc=$(command -v "$real_cc") || skip "no $PLUGIN_CC"
unset KCFI_REAL_AS
export XDG_CACHE_HOME="$T/xdg"
cache=$XDG_CACHE_HOME/kcfi-gcc
mkdir -p "$T/bin" "$T/b1" "$T/b2" "$XDG_CACHE_HOME"

# The wrapper is a script: its bytes (and so its identity) can change.
cat > "$T/bin/cc" <<EOF
#!/bin/sh
for a; do case \$a in -print-prog-name=*) echo "\$a" >> "$T/cc.log" ;; esac; done
exec "$real_cc" "\$@"
EOF
chmod +x "$T/bin/cc"
export KCFI_CC="$T/bin/cc"

# mkas DIR: an `as` in DIR that logs DIR's name and runs the real one.
mkas() {
	cat > "$T/$1/as" <<EOF
#!/bin/sh
echo $1 >> "$T/as.log"
exec "$(command -v as)" "\$@"
EOF
	chmod +x "$T/$1/as"
}

cat > "$T/t.c" <<'C'
int apply(int (*fp)(int), int x) { return fp(x); }
C

# compile ARGS...: prints "asked=N as=NAMES": how often gcc was asked for
# its `as`, and which logging `as` ran (none: the one in PATH).
compile() {
	: > "$T/cc.log"
	: > "$T/as.log"
	rm -f "$T/t.o"
	"$KCFI_GCC" -fsanitize=kcfi -O2 "$@" -c "$T/t.c" -o "$T/t.o" 2>"$T/err" ||
		{ sed 's/^/    /' "$T/err"; echo error; return; }
	# The object must carry the check: kcfi-as ran, whichever gas it used.
	"$OBJDUMP" -d "$T/t.o" | grep -q ud2 || { echo unchecked; return; }
	echo "asked=$(wc -l < "$T/cc.log") as=$(tr '\n' ' ' < "$T/as.log" | sed 's/ $//')"
}

# 1. The first compile asks and remembers; the second does not ask.
check "first compile asks gcc" equal "asked=1 as=" "$(compile -B"$T/b1/")"
check "an entry was written" sh -c "ls '$cache'/as-* >/dev/null"
check "the same compile again uses the entry" equal "asked=0 as=" "$(compile -B"$T/b1/")"

# 2. An `as` appears in the -B directory: the directory changed, gcc is
# asked again, and the new `as` runs; then that answer is remembered.
mkas b1
check "a new as in the -B directory is used" equal "asked=1 as=b1" "$(compile -B"$T/b1/")"
check "and then remembered" equal "asked=0 as=b1" "$(compile -B"$T/b1/")"

# 3. Another -B directory is another key.
mkas b2
check "another -B directory asks again" equal "asked=1 as=b2" "$(compile -B"$T/b2/")"
check "the first -B entry still holds" equal "asked=0 as=b1" "$(compile -B"$T/b1/")"

# 4. The remembered `as` is no longer executable (nothing else changes, not
# even the directory's mtime): gcc would skip it, so the entry must not be
# used.
chmod -x "$T/b1/as"
check "a remembered as that is not executable is not used" \
	equal "asked=1 as=" "$(compile -B"$T/b1/")"
# Executable again: the directory is unchanged, but the entry's "as" (PATH)
# is no longer what the search gives.
chmod +x "$T/b1/as"
check "an as that became executable is used" equal "asked=1 as=b1" "$(compile -B"$T/b1/")"

# 5. The compiler binary changes (same path, other bytes): ask again.
echo "# changed" >> "$T/bin/cc"
check "a changed compiler binary asks again" equal "asked=1 as=b1" "$(compile -B"$T/b1/")"
check "and then uses its entry" equal "asked=0 as=b1" "$(compile -B"$T/b1/")"

# 6. Corrupt entries: truncated, garbage, an empty file, a directory in its
# place.  Each compile still runs the right `as` and repairs the entry.
for how in truncate garbage empty; do
	for e in "$cache"/as-*; do
		case $how in
		truncate) head -c 40 "$e" > "$e.x" && mv "$e.x" "$e" ;;
		garbage) head -c 300 /dev/urandom > "$e" ;;
		empty) : > "$e" ;;
		esac
	done
	check "$how entry: the right as still runs" equal "asked=1 as=b1" "$(compile -B"$T/b1/")"
	check "$how entry: repaired" equal "asked=0 as=b1" "$(compile -B"$T/b1/")"
done
# An entry whose key was written for another compiler (same file name, as a
# hash collision would give): it must not be used.
for e in "$cache"/as-*; do
	sed "s|$T/bin/cc|$T/bin/xx|g" "$e" > "$e.x" && mv "$e.x" "$e"
done
check "an entry with another key is not used" equal "asked=1 as=b1" "$(compile -B"$T/b1/")"

# 7. The `as` leaves the -B directory: back to the one in PATH.
rm "$T/b1/as"
check "a removed as is not used" equal "asked=1 as=" "$(compile -B"$T/b1/")"

# 8. $XDG_CACHE_HOME missing: created (0700, as the base directory
# specification asks), and the entry used.
rm -rf "$XDG_CACHE_HOME"
compile -B"$T/b2/" > /dev/null
check "a missing XDG_CACHE_HOME is created, mode 0700" sh -c \
	"[ -d '$XDG_CACHE_HOME/kcfi-gcc' ] && [ \$(stat -c %a '$XDG_CACHE_HOME') = 700 ]"
check "and the entry made there is used" equal "asked=0 as=b2" "$(compile -B"$T/b2/")"

# 9. No cache directory to write: the compile still works, asking each time.
rm -rf "$XDG_CACHE_HOME"
: > "$XDG_CACHE_HOME"
export TMPDIR="$T/no-such-dir"
check "without a cache directory, still correct" equal "asked=1 as=b2" "$(compile -B"$T/b2/")"
check "and asks again" equal "asked=1 as=b2" "$(compile -B"$T/b2/")"
finish
