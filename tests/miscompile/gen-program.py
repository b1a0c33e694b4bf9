#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Random C programs whose checked indirect calls load their target through
memory that a store right before may write (issue 41 part A: the target
mover of prepass/early-target.cc hoisted such a load above a store that
writes it where the alias oracle's table was stale).

    gen-program.py SEED [FILE]

The same SEED gives the same program on every machine (random.Random(SEED),
no hash of a set or dict order).  Every program is well-defined C (no
signed overflow: values are masked to 16 bits before they multiply;
indices are reduced by the array size; pointers to function pointers are
written only through their own type, or through a union's own members),
prints one line per call ("f3 #2 1234") and a final checksum line, and
calls every function pointer through the type of the function it points at
(`long (long)` or `long (long, long)`), so KCFI itself never traps: any
difference between plain gcc and kcfi-gcc is a miscompile.

Shapes (each test function is one, with random details):
  slots     a stack array of function pointers, a pointer into it laundered
            through a volatile, a store into the array through another base
            (index, laundered alias, memcpy), then the call through the
            laundered pointer (the issue's reproducer is one of these)
  union     the same with an array of unions (a function pointer member,
            a long member written with the pointer's value, a struct member)
  ops       two-level chains: ops = obj->ops; fn = ops->fn, with writes to
            the table or to the object between the chain's loads
  chain     a pointer to the slot loaded through another pointer, stores to
            both levels
  spill     many live values across the store and the call
  loop      a loop storing into a table and calling through it (unrolled
            at -funroll-loops)
  global    a global table written through a laundered pointer, called
            through the table
"""
import random
import sys

NT = 8          # targets of type long (long)
NU = 4          # targets of type long (long, long)


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.seed = seed
        self.out = []
        self.mains = []
        self.globals = []
        self.nf = 0

    def pick(self, seq):
        return self.r.choice(seq)

    def t(self):
        return "t%d" % self.r.randrange(NT)

    def u(self):
        return "u%d" % self.r.randrange(NU)

    def emit(self, s):
        self.out.append(s)

    def attr(self):
        # Mostly kept out of main; sometimes inlined, sometimes cloned.
        return self.pick(["NOINLINE ", "NOINLINE ", "NOINLINE ", "", "static "])

    def live(self, n, src):
        """n live values derived from src, and their sum expression."""
        decl = []
        names = []
        for k in range(n):
            a, b = self.r.randrange(1, 97), self.r.randrange(0, 1000)
            op = self.pick(["+", "^", "|"])
            prev = names[-1] if names and self.r.random() < 0.5 else src
            decl.append("\tlong v%d = ((%s & 0xffff) * %d) %s %d;" % (k, prev, a, op, b))
            names.append("v%d" % k)
        return decl, (" + ".join("(%s & 0xfff)" % v for v in names) if names else "0")

    def mod(self, e, k):
        """e reduced to an index of k (i >= 0): a mask where k is a power
        of two (the address is then one add, as in the issue's
        reproducer, which i %% 4 hides on aarch64), else %%."""
        return "%s & %d" % (e, k - 1) if k & (k - 1) == 0 else "%s %% %d" % (e, k)

    def sinks(self, ptr):
        return self.pick(["", "", "\tsink = (long)%s;" % ptr, "\tsink = sink + 1;"])

    def call1(self, fexpr, arg):
        return "%s(%s)" % (fexpr, arg)

    # slots: the reproducer's family.
    def slots(self, name):
        k = self.pick([2, 3, 4, 4, 4, 5, 8])
        two = self.r.random() < 0.25
        ty = "fn2_t" if two else "fn_t"
        tg = self.u if two else self.t
        args = "(x, i)" if two else "(x)"
        init = ", ".join(tg() for _ in range(k))
        L = []
        L.append("%slong %s(%s g, long i, long x)" % (self.attr(), name, ty))
        L.append("{")
        L.append("\t%s slots[%d] = { %s };" % (ty, k, init))
        nlive = self.pick([0, 0, 2, 6, 14])
        dl, ls = self.live(nlive, "x")
        if self.r.random() < 0.5:
            L += dl
            dl = []
        L.append("\t%s *volatile laundered = &slots[%s];" % (ty, self.mod("i", k)))
        L.append("\t%s *p = laundered;" % ty)
        s = self.sinks("p")
        if s:
            L.append(s)
        L += dl
        j = self.r.randrange(k)
        how = self.pick(["index", "index", "var", "base", "memcpy", "alias", "two"])
        if how == "index":
            L.append("\tslots[%d] = g;" % j)
        elif how == "var":
            L.append("\tslots[%s] = g;" % self.mod("(i + %d)" % self.r.randrange(2), k))
        elif how == "base":
            L.append("\t%s *volatile lq = slots;" % ty)
            L.append("\t%s *q = lq;" % ty)
            L.append("\tq[%d] = g;" % j)
        elif how == "memcpy":
            L.append("\tmemcpy(&slots[%d], &g, sizeof g);" % j)
        elif how == "alias":
            L.append("\t%s *volatile lq = &slots[%d];" % (ty, j))
            L.append("\t*lq = g;")
        else:
            j2 = self.r.randrange(k)
            L.append("\tslots[%d] = g;" % j)
            L.append("\tsink = sink + 1;")
            L.append("\tslots[%d] = %s;" % (j2, tg()))
        L.append("\treturn ((*p)%s & 0xffff) + %d + %s;" % (args, self.r.randrange(100), ls))
        L.append("}")
        self.emit("\n".join(L))
        g = tg()
        self.mains.append("\tfor (long i = 0; i < %d; i++)\n\t\tnote(\"%s\", i, %s(%s, i, %d + i));"
                          % (k + 1, name, name, g, self.r.randrange(1000)))

    # union: slots of a union type.
    def union(self, name):
        k = self.pick([2, 3, 4, 4])
        L = ["%slong %s(fn_t g, long i, long x)" % (self.attr(), name), "{",
             "\tunion slot u[%d];" % k]
        for m in range(k):
            L.append("\tu[%d].f = %s;" % (m, self.t()))
        L.append("\tunion slot *volatile laundered = &u[%s];" % self.mod("i", k))
        L.append("\tunion slot *p = laundered;")
        s = self.sinks("p")
        if s:
            L.append(s)
        j = self.r.randrange(k)
        how = self.pick(["f", "l", "s", "ptr"])
        if how == "f":
            L.append("\tu[%d].f = g;" % j)
        elif how == "l":
            L.append("\tu[%d].l = (long)g;" % j)
        elif how == "s":
            L.append("\tu[%d].s.f = g;" % j)
            L.append("\tu[%d].s.pad = x;" % j)
        else:
            L.append("\tunion slot *volatile lq = u;")
            L.append("\tunion slot *q = lq;")
            L.append("\tq[%d].f = g;" % j)
        read = self.pick(["p->f", "p->f", "p->s.f"])
        L.append("\treturn (%s(x) & 0xffff) + %d;" % (read, self.r.randrange(100)))
        L.append("}")
        self.emit("\n".join(L))
        self.mains.append("\tfor (long i = 0; i < %d; i++)\n\t\tnote(\"%s\", i, %s(%s, i, %d - i));"
                          % (k + 1, name, name, self.t(), self.r.randrange(1000)))

    # ops: obj->ops->fn with writes between the loads.
    def ops(self, name):
        L = ["%slong %s(struct obj *o, struct obj *o2, struct ops *w, fn_t g, long x)"
             % (self.attr(), name), "{"]
        nlive = self.pick([0, 0, 3, 12])
        dl, ls = self.live(nlive, "x")
        L += dl
        form = self.pick(["between", "between", "before", "reload", "two"])
        m = self.pick(["a", "b"])
        if form == "between":
            # ops = o->ops; w->m = g (w may be ops); ops->m()
            L.append("\tstruct ops *ops = o->ops;")
            s = self.sinks("ops")
            if s:
                L.append(s)
            L.append("\tw->%s = g;" % m)
            L.append("\treturn (ops->%s(x + o->v) & 0xffff) + %s;" % (m, ls))
        elif form == "before":
            L.append("\tw->%s = g;" % m)
            L.append("\tw->k = x;")
            L.append("\treturn (o->ops->%s(x) & 0xffff) + o->ops->k + %s;" % (m, ls))
        elif form == "reload":
            # o2->ops = w (o2 may be o): the chain's first load must see it.
            L.append("\tstruct ops *old = o->ops;")
            L.append("\tsink = old->k;")
            L.append("\to2->ops = w;")
            L.append("\tw->%s = g;" % m)
            L.append("\treturn (o->ops->%s(x) & 0xffff) + %s;" % (m, ls))
        else:
            L.append("\tlong r = o->ops->a(x) & 0xffff;")
            L.append("\tw->a = g;")
            L.append("\to2->v = r;")
            L.append("\treturn r + (o->ops->b(o->v) & 0xffff) + (o->ops->a(x + 1) & 0xffff) + %s;" % ls)
        L.append("}")
        self.emit("\n".join(L))
        # Each call starts from fresh tables: w is the same table as o's, or not.
        self.mains.append(
            "\tfor (long c = 0; c < 4; c++) {\n"
            "\t\tstruct ops tb1 = { %s, %s, 5 }, tb2 = { %s, %s, 7 };\n"
            "\t\tstruct obj a = { &tb1, 3 }, b = { &tb2, 4 };\n"
            "\t\tstruct ops *w = (c & 1) ? &tb1 : &tb2;\n"
            "\t\tstruct obj *o2 = (c & 2) ? &a : &b;\n"
            "\t\tnote(\"%s\", c, %s(&a, o2, w, %s, %d));\n"
            "\t}" % (self.t(), self.t(), self.t(), self.t(), name, name, self.t(),
                     self.r.randrange(1000)))

    # chain: the slot's address loaded through another pointer.
    def chain(self, name):
        L = ["%slong %s(fn_t **pp, fn_t **qq, fn_t *alt, fn_t g, long x)" % (self.attr(), name),
             "{"]
        form = self.pick(["a", "b", "c"])
        if form == "a":
            L.append("\t*qq = alt;")
            L.append("\tfn_t *p = *pp;")
            L.append("\t*alt = g;")
            L.append("\treturn ((*p)(x) & 0xffff) + 1;")
        elif form == "b":
            L.append("\tfn_t *p = *pp;")
            L.append("\tsink = (long)p;")
            L.append("\t**qq = g;")
            L.append("\treturn ((*p)(x) & 0xffff) + 2;")
        else:
            L.append("\tfn_t *p = *pp;")
            L.append("\t*qq = alt;")
            L.append("\t*alt = g;")
            L.append("\treturn ((**pp)(x) & 0xffff) + ((*p)(x + 1) & 0xffff);")
        L.append("}")
        self.emit("\n".join(L))
        self.mains.append(
            "\tfor (long c = 0; c < 4; c++) {\n"
            "\t\tfn_t s1 = %s, s2 = %s, s3 = %s;\n"
            "\t\tfn_t *a = &s1, *b = (c & 1) ? &s1 : &s2;\n"
            "\t\tfn_t **qq = (c & 2) ? &a : &b;\n"
            "\t\tnote(\"%s\", c, %s(&a, qq, (c & 1) ? &s3 : &s1, %s, %d));\n"
            "\t}" % (self.t(), self.t(), self.t(), name, name, self.t(), self.r.randrange(1000)))

    # spill: many live values across the store and the call.
    def spill(self, name):
        n = self.pick([8, 16, 24])
        dl, ls = self.live(n, "x")
        L = ["%slong %s(fn_t *slot, fn_t *other, fn_t g, long x)" % (self.attr(), name), "{"]
        L += dl
        L.append("\tsink = v0;")
        L.append("\t*other = g;")
        L.append("\tlong r = (*slot)(v%d) & 0xffff;" % self.r.randrange(n))
        L.append("\treturn r + %s;" % ls)
        L.append("}")
        self.emit("\n".join(L))
        self.mains.append(
            "\tfor (long c = 0; c < 2; c++) {\n"
            "\t\tfn_t s[2] = { %s, %s };\n"
            "\t\tnote(\"%s\", c, %s(&s[0], &s[c], %s, %d));\n"
            "\t}" % (self.t(), self.t(), name, name, self.t(), self.r.randrange(1000)))

    # loop: stores into a table and calls through it in a loop.
    def loop(self, name):
        m = self.pick([1, 3, 5])
        s = self.r.randrange(4)
        L = ["%slong %s(fn_t g, long n, long x)" % (self.attr(), name), "{",
             "\tfn_t tab[4] = { %s, %s, %s, %s };" % (self.t(), self.t(), self.t(), self.t()),
             "\tfn_t *volatile l = tab;", "\tfn_t *q = l;", "\tlong acc = x;",
             "\tfor (long k = 0; k < n; k++) {"]
        form = self.pick(["store-call", "call-store", "laundered"])
        if form == "store-call":
            L.append("\t\tq[(k + %d) & 3] = (k & 1) ? g : ftab[k & 7];" % s)
            L.append("\t\tacc = (acc + tab[(k * %d) & 3](acc + k)) & 0xffff;" % m)
        elif form == "call-store":
            L.append("\t\tacc = (acc + q[(k * %d) & 3](acc + k)) & 0xffff;" % m)
            L.append("\t\ttab[(k + %d) & 3] = (k & 2) ? g : ftab[(k + 3) & 7];" % s)
        else:
            L.append("\t\tfn_t *p = &q[(k * %d) & 3];" % m)
            L.append("\t\ttab[(k + %d) & 3] = ftab[(acc + k) & 7];" % s)
            L.append("\t\tacc = (acc + (*p)(acc ^ k)) & 0xffff;")
        L.append("\t}")
        L.append("\treturn acc;")
        L.append("}")
        self.emit("\n".join(L))
        self.mains.append("\tfor (long n = 0; n < 11; n += 5)\n\t\tnote(\"%s\", n, %s(%s, n, %d));"
                          % (name, name, self.t(), self.r.randrange(1000)))

    # global: a global table, written through a laundered pointer.
    def glob(self, name):
        gname = "gtab_" + name
        self.globals.append("fn_t %s[4] = { %s, %s, %s, %s };"
                            % (gname, self.t(), self.t(), self.t(), self.t()))
        L = ["%slong %s(fn_t g, long i, long x)" % (self.attr(), name), "{",
             "\tfn_t *volatile l = &%s[i & 3];" % gname, "\tfn_t *p = l;"]
        form = self.pick(["direct", "laundered"])
        if form == "direct":
            L.append("\tfn_t f = %s[(i + 1) & 3];" % gname)
            L.append("\t%s[i & 3] = g;" % gname)
            L.append("\treturn (f(x) & 0xffff) + ((*p)(x + 1) & 0xffff);")
        else:
            L.append("\tfn_t *volatile lq = %s;" % gname)
            L.append("\tlq[(i + %d) & 3] = g;" % self.r.randrange(2))
            L.append("\treturn ((*p)(x) & 0xffff) + %d;" % self.r.randrange(100))
        L.append("}")
        self.emit("\n".join(L))
        self.mains.append("\tfor (long i = 0; i < 5; i++)\n\t\tnote(\"%s\", i, %s(%s, i, %d));"
                          % (name, name, self.t(), self.r.randrange(1000)))

    def program(self):
        # The stack slots and unions are where the stale alias tables bit
        # (issue 41): weighted up; the rest covers the other ways in.
        shapes = [self.slots, self.slots, self.slots, self.union, self.union, self.ops,
                  self.ops, self.chain, self.spill, self.loop, self.glob]
        n = self.r.randrange(6, 11)
        for k in range(n):
            self.pick(shapes)("f%d" % k)
        head = ["/* gen-program.py %d: generated, see tests/miscompile/gen-program.py */" % self.seed,
                "#include <stdio.h>", "#include <string.h>",
                "#define NOINLINE __attribute__((noinline))",
                "typedef long (*fn_t)(long);", "typedef long (*fn2_t)(long, long);",
                "volatile long sink;", "static unsigned long sum;",
                "static void note(const char *f, long c, long v)",
                "{", "\tsum = sum * 1000003u + (unsigned long)v;",
                "\tprintf(\"%s #%ld %ld\\n\", f, c, v);", "}"]
        for k in range(NT):
            head.append("%slong t%d(long x) { return (x & 0xffff) * %d + %d; }"
                        % (self.pick(["", "static "]), k, self.r.randrange(1, 50),
                           self.r.randrange(1000)))
        for k in range(NU):
            head.append("long u%d(long x, long y) { return (x & 0xffff) * %d - (y & 0xff) + %d; }"
                        % (k, self.r.randrange(1, 50),
                           self.r.randrange(1000)))
        head.append("fn_t ftab[8] = { %s };" % ", ".join("t%d" % k for k in range(NT)))
        head.append("union slot { fn_t f; long l; struct { fn_t f; long pad; } s; };")
        head.append("struct ops { fn_t a; fn_t b; long k; };")
        head.append("struct obj { struct ops *ops; long v; };")
        body = ["int main(void)", "{"] + self.mains + [
            "\tprintf(\"checksum %lx\\n\", sum);", "\treturn 0;", "}"]
        return "\n".join(head + self.globals + self.out + body) + "\n"


def main():
    if len(sys.argv) not in (2, 3):
        sys.stderr.write("usage: gen-program.py SEED [FILE]\n")
        sys.exit(2)
    text = Gen(int(sys.argv[1])).program()
    if len(sys.argv) == 3:
        with open(sys.argv[2], "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
