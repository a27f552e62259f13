/* kbench - the compiled form of a loadfile
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A loadfile is parsed once, before any client starts, into a program: an
 * array of fixed-size ops and one arena of NUL-terminated paths.  Replaying
 * an op needs no string parsing, no lookup by name and no allocation.
 *
 * Invariants:
 *  - every path in the arena is relative (to the client's own tree, or to
 *    the run directory when OPF_SHARED1/OPF_SHARED2 is set), lower case,
 *    uses '/', has no "." or ".." component and is never empty ("." stands
 *    for the tree's root);
 *  - each path string is preceded in the arena by its struct path_info: the
 *    directory that holds it and the offset of its last component, so a
 *    replay never looks for a '/' (prog_info());
 *  - every directory that holds a path is itself in the arena and has a
 *    dense index in prog->dirs (0 is the base the path is relative to),
 *    which a client's cache of directory fds is indexed by;
 *  - each loadfile handle number (fnum) is mapped to a dense index below
 *    nhandles, so a client's handle table is a plain array;
 *  - the ops live in a sealed memfd (prog->fd), packed (progcode.h: about
 *    8 bytes an op of dbench's client.txt), that clients read and unpack in
 *    small windows, so the program is held in memory once, not once per
 *    client, and small.
 */
#ifndef KBENCH_PROGRAM_H
#define KBENCH_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

/* one value per row of opcodes.def, in its order */
enum opcode {
#define OPCODE(id, file, report, nargs, min2, expect2) OP_##id,
#include "load/loadfile/opcodes.def"
#undef OPCODE
	OP_COUNT
};

/* What the loadfile expects of an op. */
enum expect {
	EXPECT_OK,    /* NT_STATUS_OK, 0x0, SUCCESS */
	EXPECT_FAIL,  /* any other NT_STATUS_* or 0x..., ERROR */
	EXPECT_ANY,   /* "*": the outcome is not checked */
};

/* op.flags */
#define OPF_SHARED1  0x01  /* path1 is relative to the run directory */
#define OPF_SHARED2  0x02  /* path2 is relative to the run directory */
#define OPF_WILDCARD 0x04  /* FIND_FIRST pattern has a DOS wildcard */
#define OPF_TIMED    0x08  /* ts_ns holds a schedule time */
#define OPF_OPEN_IF  0x10  /* NTCreateX: create the file if it is missing
			    * (the dbench 1 open, whose trace assumed the file) */
#define OPF_BYPATH   0x20  /* SET_FILE_INFORMATION on path1, not a handle
			    * (the dbench 1 SMBsetatr) */
#define OPF_SETSIZE  0x40  /* NTCreateX: grow (by writing) or cut the file to
			    * off bytes once open (the dbench 1 open, which
			    * gave the file its traced size) */
#define OPF_ANYSIZE  0x80  /* ReadX: any size read is a success and counts
			    * what it read (dbench 1 did not check what a
			    * read returned, and its trace does not say) */

/* What an NTCreateX line means, decoded once from its disposition and
 * create_options when it is read (lf_emit), in op.open: backends, the
 * checker and the cleanup read these bits, never the disposition. */
#define OPEN_DIR    0x1  /* a directory (create_options has FILE_DIRECTORY_FILE) */
#define OPEN_CREATES 0x2  /* the disposition creates (FILE_CREATE, FILE_OVERWRITE,
			  * FILE_OVERWRITE_IF): a directory is made first; a
			  * file gets -x's attribute and -S's directory sync */
#define OPEN_CREAT  0x4  /* a file: created when missing (FILE_CREATE, the
			  * overwrites, OPF_OPEN_IF) */
#define OPEN_TRUNC  0x8  /* a file: cut to 0 bytes (FILE_OVERWRITE, FILE_OVERWRITE_IF,
			  * unless FILE_CREATE or OPF_OPEN_IF) */

/* NTCreateX create_options and dispositions (MS-SMB), as loadfiles give them */
#define FILE_DIRECTORY_FILE 0x0001
#define FILE_OPEN 1
#define FILE_CREATE 2
#define FILE_OVERWRITE 4
#define FILE_OVERWRITE_IF 5

/* OPF_SETSIZE grows a file in writes of at most this many bytes, and the
 * client's I/O buffer holds at least that many (or the largest size) */
#define SETSIZE_CHUNK 65536u

#define NO_HANDLE UINT32_MAX  /* NTCreateX that binds no handle (fnum -1) */

#define NO_PATH UINT32_MAX

/* One operation as it is replayed: 48 bytes (the memfd holds it packed,
 * progcode.h).  Field use by opcode:
 *   NTCreateX  path1, handle, arg = create_options, aux = disposition,
 *              open = OPEN_* (what those two mean), off = size to give
 *              the file (OPF_SETSIZE)
 *   Close Flush Qfileinfo Sfileinfo    handle (arg = info level)
 *   ReadX WriteX  handle, off = offset (bytes), len = size (bytes),
 *                 ret = ret_size (bytes the line expects moved)
 *   LockX UnlockX handle, off = offset, len = length (bytes)
 *   Rename     path1 -> path2
 *   Unlink Deltree Rmdir Mkdir Qpathinfo   path1
 *   Qfsinfo    arg = info level
 *   FIND_FIRST path1 = pattern (or name), arg = maxcnt, ret = count (the
 *              entries the line says came back; 0 when its format has none)
 *   Sleep      off = microseconds
 */
struct op {
	uint8_t code;     /* enum opcode */
	uint8_t expect;   /* enum expect */
	uint8_t flags;    /* OPF_* */
	uint8_t aux;      /* NTCreateX disposition */
	uint32_t line;    /* 1-based loadfile line, for error reports */
	uint32_t handle;  /* dense handle index, or 0 */
	uint32_t path1;   /* arena offset, or NO_PATH */
	uint32_t path2;   /* arena offset, or NO_PATH */
	uint32_t arg;     /* see above */
	uint64_t off;     /* see above */
	uint32_t len;     /* see above */
	union {
		uint32_t ret;     /* see above */
		uint32_t open;    /* NTCreateX: OPEN_* */
	};
	uint64_t ts_ns;   /* schedule time from the pass start, ns (OPF_TIMED) */
};

/* Loadfile formats kbench reads (see kbench-loadfile(5)). */
enum lf_format {
	LF_AUTO,      /* detect from the first operation lines */
	LF_DBENCH4,   /* dbench 3/4: quoted paths, status column, timestamps */
	LF_DBENCH2,   /* dbench 2.x: unquoted paths, no status, fnum -1 */
	LF_DBENCH1,   /* dbench 1.x: SMB trace, REQUEST/REPLY pairs */
};

/* Whether the tool that wrote format f checked each operation's outcome
 * against the status its line gives.  dbench 2, 3 and 4 did (a failed
 * open that the line calls OK stops dbench 4); dbench 1 replayed its
 * trace and never acted on a reply, and a few of the trace's replies were
 * caused by something outside the traced client (another client, the
 * server's own state).  kbench replays such a format as its tool did: an
 * operation that does not end as the trace recorded is counted and named
 * (a mismatch, a caveat of the run), not an error that fails it. */
static inline int lf_statuses_checked(enum lf_format f)
{
	return f != LF_DBENCH1;
}

#define IGNORED_KINDS 16

/* Lines of a loadfile that kbench does not model, counted by kind. */
struct ignored_kind {
	char name[32];           /* e.g. "SMBlseek", "SMBnegprot REPLY" */
	uint64_t count;
	uint64_t first_line;
};

/* What the arena holds just before each path string (4-byte aligned). */
struct path_info {
	uint32_t dir;        /* index in prog->dirs of the directory holding the
			      * path; 0: the base itself (no '/' in it) */
	uint32_t self;       /* the path's own index in prog->dirs when some
			      * other path lies inside it, else 0 */
	uint32_t leaf;       /* offset of its last component in the string */
};

struct program {
	char *source;        /* loadfile name as given (for messages) */
	int fd;              /* memfd holding the nops ops packed (progcode.h),
			      * read-only */
	size_t nops;         /* number of ops */
	uint64_t code_bytes; /* the memfd's size, bytes */
	char *arena;         /* path strings */
	size_t arena_len;    /* bytes used in arena */
	uint32_t *dirs;      /* directory index -> arena offset of its path
			      * (dirs[0], the base, is NO_PATH) */
	uint32_t ndirs;      /* entries in dirs, the base included (>= 1 once
			      * a path is stored) */
	uint32_t nhandles;   /* distinct handle numbers */
	uint32_t max_io;     /* largest ReadX/WriteX size, bytes */
	int timed;           /* 1 if any op carries a timestamp */
	uint64_t count[OP_COUNT];   /* ops per opcode in one pass */
	uint64_t bytes_read;        /* ReadX bytes per pass */
	uint64_t bytes_written;     /* WriteX bytes per pass */
	uint64_t nlines;            /* lines in the file */
	uint64_t ncomments;         /* '#' lines */
	uint64_t nblank;            /* empty or blank lines */
	enum lf_format format;      /* the format the file was read as */
	struct ignored_kind ignored[IGNORED_KINDS];
	uint32_t nignored_kinds;
	uint64_t ignored_other;     /* ignored lines beyond IGNORED_KINDS kinds */
	uint64_t ignored_total;
	uint64_t npaired;           /* dbench 1: lines that are the other half of
				     * a modelled REQUEST/REPLY pair */
};

/* What NTCreateX op's disposition (aux), create_options (arg) and
 * OPF_OPEN_IF mean: the OPEN_* bits.  Returns them. */
uint32_t op_open_bits(const struct op *op);

/* Names: the loadfile's opcode name, and dbench's short report name. */
const char *op_file_name(enum opcode code);
const char *op_report_name(enum opcode code);

/* Path string at arena offset off (off != NO_PATH). */
static inline const char *prog_path(const struct program *p, uint32_t off)
{
	return p->arena + off;
}

/* The struct path_info stored before the path at arena offset off. */
static inline const struct path_info *prog_info(const struct program *p, uint32_t off)
{
	return (const struct path_info *)(const void *)(p->arena + off - sizeof(struct path_info));
}

/* Release everything the program holds.  Takes NULL. */
void prog_free(struct program *p);

#endif
