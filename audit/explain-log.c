/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a kernel log for --explain: every CFI failure report in it.
 *
 * Linux prints one line per failure (kernel/cfi.c, 6.1 and 6.12 alike):
 *	CFI failure at %pS (target: %pS; expected type: 0x%08x)
 *	CFI failure at %pS (no target information)
 * where %pS is "sym+0xoff/0xsize", followed by " [module]" (and a build
 * id) for a module's code.  Then a trapping kernel dies ("Oops: invalid
 * opcode" on x86, "Internal error: Oops - CFI" on arm64 and arm, "Oops -
 * CFI" or "Kernel BUG" on riscv64) and a CONFIG_CFI_PERMISSIVE one warns
 * ("WARNING: CPU: 0 PID: 1 at %pS") and goes on; both print the registers
 * and a call trace.  Under x86 FineIBT the trap is in the callee's
 * preamble (__cfi_y+0xd), so the caller is known only from the trace: its
 * first reliable frame (no "? ") that is no preamble is the return address
 * of the call.  Lines are read one at a time into one buffer; only the
 * reports are kept.
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "audit/explain.h"

/* "[ anything ]" at S where the inside is a printk timestamp or caller id
 * ("   12.345678", "    T1", "C0", dmesg -T's date): its end, else S. */
static const char *bracket(const char *s)
{
	if (*s != '[')
		return s;
	const char *e = strchr(s, ']');
	if (!e || e - s > 40)
		return s;
	for (const char *p = s + 1; p < e; p++)
		if (!isalnum((unsigned char)*p) && !strchr(" .:", *p))
			return s;
	return e[1] == ' ' ? e + 2 : e + 1;
}

const char *explain_strip(const char *line)
{
	const char *s = line, *k;
	/* syslog and journalctl: "Jan 12 10:00:00 host kernel: text". */
	if ((k = strstr(s, " kernel: ")))
		s = k + 9;
	/* dmesg -x: "kern  :err   : text". */
	if (!strncmp(s, "kern", 4)) {
		const char *c = strchr(s, ':');
		const char *d = c ? strchr(c + 1, ':') : NULL;
		if (d && d - s < 20 && d[1] == ' ')
			s = d + 2;
	}
	/* printk's level, "<3>", as a serial console or /dev/kmsg shows it. */
	if (s[0] == '<' && isdigit((unsigned char)s[1]) && s[2] == '>')
		s += 3;
	for (int i = 0; i < 3; i++) {
		const char *b = bracket(s);
		if (b == s)
			break;
		s = b;
	}
	return s;
}

static const char *hex(const char *s, uint64_t *v)
{
	if (s[0] != '0' || s[1] != 'x' || !isxdigit((unsigned char)s[2]))
		return NULL;
	char *end;
	*v = strtoull(s + 2, &end, 16);
	return end;
}

const char *explain_frame(const char *s, struct frame *fr)
{
	size_t n = 0;
	memset(fr, 0, sizeof(*fr));
	while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '.' || s[n] == '$')
		n++;
	if (!n || n >= sizeof(fr->sym) || s[n] != '+')
		return NULL;
	memcpy(fr->sym, s, n);
	s = hex(s + n + 1, &fr->off);
	if (!s || *s != '/' || !(s = hex(s + 1, &fr->size)))
		return NULL;
	if (s[0] == ' ' && s[1] == '[') {
		size_t m = strcspn(s + 2, " ]");
		if (!m || m >= sizeof(fr->mod) || !strchr(s + 2, ']'))
			return NULL;	/* cut inside the module's name */
		memcpy(fr->mod, s + 2, m);
		s = strchr(s + 2, ']') + 1;
	}
	return s;
}

/* The report on LINE (stripped, at "CFI failure at "); r->cut says what
 * was missing if it was cut short. */
static void report_line(const char *s, struct cfi_report *r)
{
	s += strlen("CFI failure at ");
	const char *e = explain_frame(s, &r->at);
	if (!e) {
		r->cut = "the place of the failure";
		return;
	}
	if (!strncmp(e, " (no target information)", 24))
		return;
	if (strncmp(e, " (target: ", 10)) {
		r->cut = "the target and the expected type";
		return;
	}
	e = explain_frame(e + 10, &r->target);
	if (!e) {
		r->cut = "the target and the expected type";
		return;
	}
	r->has_target = true;
	uint64_t t;
	const char *h = strncmp(e, "; expected type: ", 17) ? NULL : hex(e + 17, &t);
	if (!h || h - (e + 17) != 10 || *h != ')') {
		r->cut = "the expected type";
		return;
	}
	r->has_type = true;
	r->type = (uint32_t)t;
}

/* A frame of a call trace: x86 " ? sym+0x1/0x2 [mod]", arm64 "  sym+...",
 * riscv64 "[<ffffffff80001234>] sym+...", arm "[<c0101234>] (sym) from ...". */
static bool trace_frame(const char *s, struct frame *fr, bool *reliable)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if (!strncmp(s, "[<", 2)) {
		const char *e = strstr(s, ">] ");
		if (!e)
			return false;
		s = e + 3;
	}
	*reliable = strncmp(s, "? ", 2) != 0;
	if (!*reliable)
		s += 2;
	if (*s == '(')
		s++;
	return explain_frame(s, fr) != NULL;
}

int explain_read_log(FILE *in, const char *name, struct cfi_report **out, size_t *n)
{
	char *buf = NULL;
	size_t cap = 0, nr = 0, rcap = 0;
	unsigned long lineno = 0;
	struct cfi_report *rs = NULL, *cur = NULL;
	ssize_t len;
	*out = NULL;
	*n = 0;
	while ((len = getline(&buf, &cap, in)) >= 0) {
		lineno++;
		if (len && buf[len - 1] == '\n')
			buf[--len] = 0;
		if (len && buf[len - 1] == '\r')
			buf[--len] = 0;
		if (memchr(buf, 0, (size_t)len))
			continue;	/* binary junk: no report line holds a NUL */
		const char *s = explain_strip(buf), *c = strstr(s, "CFI failure at ");
		if (c) {
			if (nr == rcap) {
				rcap = rcap ? 2 * rcap : 8;
				struct cfi_report *v = realloc(rs, rcap * sizeof(*rs));
				if (!v) {
					audit_error(name, "out of memory");
					free(rs);
					free(buf);
					return -1;
				}
				rs = v;
			}
			cur = &rs[nr++];
			memset(cur, 0, sizeof(*cur));
			cur->line = lineno;
			report_line(c, cur);
			continue;
		}
		if (!cur)
			continue;
		if (strstr(s, "WARNING: CPU: ") && cur->outcome == OUTCOME_UNKNOWN)
			cur->outcome = OUTCOME_PERMISSIVE;
		else if ((!strncmp(s, "Oops", 4) || !strncmp(s, "Internal error: ", 16) ||
			  !strncmp(s, "invalid opcode: ", 16) || !strncmp(s, "Kernel BUG", 10)) &&
			 cur->outcome == OUTCOME_UNKNOWN)
			cur->outcome = OUTCOME_TRAP;
		if (strstr(s, "Call Trace:") || strstr(s, "Call trace:") || strstr(s, "Backtrace:")) {
			cur->trace_seen = true;
			continue;
		}
		struct frame fr;
		bool reliable;
		if (cur->trace_seen && !cur->has_caller && trace_frame(s, &fr, &reliable) && reliable &&
		    strncmp(fr.sym, "__cfi_", 6)) {
			cur->caller = fr;
			cur->has_caller = true;
		}
	}
	bool err = ferror(in);
	free(buf);
	if (err) {
		audit_error(name, "cannot read the log");
		free(rs);
		return -1;
	}
	*out = rs;
	*n = nr;
	return 0;
}
