/* kbench - packing and unpacking a program's ops (see progcode.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout of one op:
 *   head  bits 0-4 opcode, 5-6 expected status, 7 line = the line before + 1
 *   mask  varint of the F_* bits below: which fields follow
 *   the fields in F_* order; the numbers as LEB128 varints (7 bits a
 *   byte, low first), flags and aux as one byte each, the line (when
 *   not the next) and the timestamp as zigzag differences from the op
 *   before.
 * A field that is absent is 0 (a path: NO_PATH; the line: the one after
 * the op before's; the timestamp: the op before's).
 */
#include "config.h"
#include "load/loadfile/progcode.h"
#include "sys/textgroup.h"

#include <string.h>

enum {
	F_HANDLE = 1u << 0,
	F_PATH1 = 1u << 1,
	F_ARG = 1u << 2,
	F_OFF = 1u << 3,
	F_LEN = 1u << 4,
	F_RET_LEN = 1u << 5,   /* ret equals len (a whole ReadX or WriteX) */
	F_AUX = 1u << 6,
	F_RET = 1u << 7,
	F_FLAGS = 1u << 8,
	F_LINE = 1u << 9,
	F_PATH2 = 1u << 10,
	F_TS = 1u << 11,
	F_ALL = (1u << 12) - 1,
};

#define HEAD_NEXT_LINE 0x80u

KB_CLIENT_TEXT
static unsigned char *put_var(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

KB_CLIENT_TEXT
static uint64_t zigzag(uint64_t diff)
{
	return (diff << 1) ^ (0 - (diff >> 63));
}

KB_CLIENT_TEXT
static uint64_t unzigzag(uint64_t z)
{
	return (z >> 1) ^ (0 - (z & 1));
}

KB_CLIENT_TEXT
void progcode_start(struct op *prev)
{
	memset(prev, 0, sizeof(*prev));
	prev->path1 = prev->path2 = NO_PATH;
}

/* ret as stored: an NTCreateX's union holds its OPEN_* bits, made again */
KB_CLIENT_TEXT
static uint32_t stored_ret(const struct op *op)
{
	return op->code == OP_NTCREATEX ? 0 : op->ret;
}

KB_CLIENT_TEXT
size_t progcode_put(const struct op *op, const struct op *prev, unsigned char *out)
{
	unsigned char *p = out;
	uint32_t ret = stored_ret(op);
	unsigned mask = 0;
	int next_line = op->line == prev->line + 1;
	mask |= op->handle ? F_HANDLE : 0;
	mask |= op->path1 != NO_PATH ? F_PATH1 : 0;
	mask |= op->arg ? F_ARG : 0;
	mask |= op->off ? F_OFF : 0;
	mask |= op->len ? F_LEN : 0;
	if (ret && ret == op->len)
		mask |= F_RET_LEN;
	else if (ret)
		mask |= F_RET;
	mask |= op->aux ? F_AUX : 0;
	mask |= op->flags ? F_FLAGS : 0;
	mask |= next_line ? 0 : F_LINE;
	mask |= op->path2 != NO_PATH ? F_PATH2 : 0;
	mask |= op->ts_ns != prev->ts_ns ? F_TS : 0;

	*p++ = (unsigned char)((op->code & 0x1f) | (op->expect & 3) << 5 |
			       (next_line ? HEAD_NEXT_LINE : 0));
	p = put_var(p, mask);
	if (mask & F_HANDLE)
		p = put_var(p, op->handle);
	if (mask & F_PATH1)
		p = put_var(p, op->path1);
	if (mask & F_ARG)
		p = put_var(p, op->arg);
	if (mask & F_OFF)
		p = put_var(p, op->off);
	if (mask & F_LEN)
		p = put_var(p, op->len);
	if (mask & F_AUX)
		*p++ = op->aux;
	if (mask & F_RET)
		p = put_var(p, ret);
	if (mask & F_FLAGS)
		*p++ = op->flags;
	if (mask & F_LINE)
		p = put_var(p, zigzag((uint64_t)op->line - prev->line));
	if (mask & F_PATH2)
		p = put_var(p, op->path2);
	if (mask & F_TS)
		p = put_var(p, zigzag(op->ts_ns - prev->ts_ns));
	return (size_t)(p - out);
}

/* One varint from *p (before end) into *v.  Returns 1, 0 when the bytes
 * end inside it, -1 when it is longer than 10 bytes or above max. */
KB_CLIENT_TEXT
static int get_var(const unsigned char **p, const unsigned char *end, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;
	for (unsigned shift = 0; shift < 70; shift += 7) {
		if (*p == end)
			return 0;
		unsigned char b = *(*p)++;
		if (shift == 63 && b > 1)
			return -1;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			if (x > max)
				return -1;
			*v = x;
			return 1;
		}
	}
	return -1;
}

/* A 32-bit field: returns as get_var */
KB_CLIENT_TEXT
static int get32(const unsigned char **p, const unsigned char *end, uint32_t *out)
{
	uint64_t v;
	int r = get_var(p, end, UINT32_MAX, &v);
	if (r == 1)
		*out = (uint32_t)v;
	return r;
}

KB_CLIENT_TEXT
long progcode_get(const unsigned char *in, size_t avail, const struct op *prev, struct op *op)
{
	const unsigned char *p = in, *end = in + avail;
	struct op o;
	uint64_t mask, v;
	int r;
	if (!avail)
		return 0;
	unsigned head = *p++;
	if ((head & 0x1f) >= OP_COUNT || ((head >> 5) & 3) > EXPECT_ANY)
		return -1;
	if ((r = get_var(&p, end, F_ALL, &mask)) != 1)
		return r;
	memset(&o, 0, sizeof(o));
	o.code = (uint8_t)(head & 0x1f);
	o.expect = (uint8_t)((head >> 5) & 3);
	o.path1 = o.path2 = NO_PATH;
	o.line = prev->line + 1;
	o.ts_ns = prev->ts_ns;
#define FIELD32(bit, dst) \
	if ((mask & (bit)) && (r = get32(&p, end, &(dst))) != 1) \
		return r
#define BYTE(bit, dst) \
	if (mask & (bit)) { \
		if (p == end) \
			return 0; \
		(dst) = *p++; \
	}
	FIELD32(F_HANDLE, o.handle);
	FIELD32(F_PATH1, o.path1);
	FIELD32(F_ARG, o.arg);
	if ((mask & F_OFF) && (r = get_var(&p, end, UINT64_MAX, &o.off)) != 1)
		return r;
	FIELD32(F_LEN, o.len);
	BYTE(F_AUX, o.aux);
	FIELD32(F_RET, o.ret);
	BYTE(F_FLAGS, o.flags);
	if (mask & F_LINE) {
		if ((r = get_var(&p, end, UINT64_MAX, &v)) != 1)
			return r;
		o.line = (uint32_t)(prev->line + unzigzag(v));
	}
	FIELD32(F_PATH2, o.path2);
	if (mask & F_TS) {
		if ((r = get_var(&p, end, UINT64_MAX, &v)) != 1)
			return r;
		o.ts_ns = prev->ts_ns + unzigzag(v);
	}
#undef FIELD32
#undef BYTE
	if (mask & F_RET_LEN)
		o.ret = o.len;
	*op = o;
	return (long)(p - in);
}
