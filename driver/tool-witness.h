/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A header that makes ccache see the plugin and kcfi-as; see tool-witness.c. */
#ifndef KCFI_TOOL_WITNESS_H
#define KCFI_TOOL_WITNESS_H

/* The path of the witness header for PLUGIN and the `as` in ASDIR, created
 * if needed; NULL (after a warning) when it cannot be written. */
char *tool_witness(const char *plugin, const char *asdir);

/* 0 if preprocessed FILE names no witness or one of these tools (with this
 * kcfi-gcc); else 1, after an error message. */
int witness_verify(const char *file, const char *plugin, const char *asdir);

/* kcfi-gcc's per-user cache directory, created if needed; NULL if there is
 * none it may safely write. */
char *kcfi_cache_dir(void);

#endif
