/* kbench - the compact form of a program's ops in its memfd
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The memfd that every client reads holds the ops packed, not as struct
 * op (48 bytes): kbench runs where its own memory is part of the
 * experiment, and a memfd is shmem that nothing reclaims without swap.
 * Each op is one head byte (opcode, expected status, "on the line after
 * the op before"), a mask of the fields that are not zero (a varint: the
 * seven fields most ops carry fit its first byte), then those fields as
 * varints, the line and timestamp as differences from the op before.
 * dbench's client.txt takes about 8 bytes an op.
 *
 * The form is sequential: decoding an op needs the op before it (its
 * line and timestamp), which a reader keeps.  Decoding is a few shifts
 * and adds per field, no allocation and no system call; a client decodes
 * a window of ops at a time (program.h: prog_read_ops).
 *
 * An NTCreateX's OPEN_* bits are not stored: progcode_get leaves them 0,
 * and the program's reader (prog_read_ops) makes them again from the
 * disposition, create_options and flags (op_open_bits), as lf_emit did.
 */
#ifndef KBENCH_PROGCODE_H
#define KBENCH_PROGCODE_H

#include <stddef.h>
#include <stdint.h>

#include "load/loadfile/program.h"

/* The most bytes one encoded op takes. */
#define PROGCODE_MAX 64

/* Encode op into out (room for PROGCODE_MAX bytes), prev being the op
 * before it in the program (all zero, paths NO_PATH, before the first:
 * progcode_start).  Returns the bytes written (2 to PROGCODE_MAX). */
size_t progcode_put(const struct op *op, const struct op *prev, unsigned char *out);

/* Decode one op from in (avail bytes) into op, prev being the op decoded
 * before it.  Returns the bytes it took, 0 when avail does not hold a
 * whole op (nothing is written then), or -1 when the bytes are not an op
 * (an opcode out of range, a varint too long).  op->open is 0. */
long progcode_get(const unsigned char *in, size_t avail, const struct op *prev, struct op *op);

/* The op that comes "before" the first: what progcode_put and
 * progcode_get take as prev for op 0. */
void progcode_start(struct op *prev);

#endif
