/* kbench - text from results files shown safely on a terminal
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench suite and kbench compare print strings that come from files
 * anyone may have written (test names, units, labels, host and kernel
 * names, the messages of failed runs, file names).  Every such string is
 * printed through these functions, which show each byte that could act on
 * a terminal as an escape instead of sending it:
 *   a C0 control character (0x00-0x1f) or DEL:   \xHH  (ESC is \x1b)
 *   a C1 control character (U+0080-U+009F):      \uHHHH (CSI is \u009b)
 *   a byte that is not part of valid UTF-8:      \xHH
 * Printable ASCII and every other valid UTF-8 character are kept as they
 * are (a backslash too: loadfile paths are full of them).
 */
#ifndef KBENCH_ESCAPE_H
#define KBENCH_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* The rule itself, one character at a time: what the character at s
 * (not NUL) is shown as, into out (at most 6 bytes, not NUL-terminated);
 * returns that length and sets *used to the bytes of s it stands for. */
size_t esc_next(const char *s, char out[8], size_t *used);

/* The length in bytes of s once escaped (s: NUL-terminated; NULL is ""). */
size_t esc_len(const char *s);

/* Print s escaped to f, then blanks up to width bytes (0: none).
 * Returns the bytes printed before the blanks. */
size_t esc_put(FILE *f, const char *s, size_t width);

/* s escaped into buf (n >= 1 bytes, always NUL-terminated); when it does
 * not fit, it is cut before the first escape or character that would not
 * fit whole, and the last three bytes that fit become "...".  Returns buf. */
char *esc_str(char *buf, size_t n, const char *s);

#endif
