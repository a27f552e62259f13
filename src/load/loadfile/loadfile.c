/* kbench - loadfile parser: text of any dbench era -> program
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The whole file is read once, line by line, before any client starts.
 * Ops are appended to a memfd in batches (the parent never holds the
 * whole program in its heap); paths and handle numbers are interned in
 * hash tables that are dropped when parsing ends.  The format is detected
 * from the first operation lines unless it is forced; gzip-compressed
 * files are read through zlib.  Any malformed line is an error: nothing is
 * guessed or skipped silently, and lines a format does not model are
 * counted by kind.
 */
#define _GNU_SOURCE 1
#include "config.h"
#include "load/loadfile/loadfile.h"
#include "load/loadfile/lfintern.h"
#include "load/loadfile/formats.h"
#include "load/loadfile/lfparse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define DETECT_LINES 64

static char gz_error[128];  /* zlib's words for the last read error */

/* ---- reading the file ---- */

static int blank_or_comment(struct parser *ps, const char *line)
{
	const char *first = line + strspn(line, " \t");
	if (!*first) {
		ps->prog->nblank++;
		return 1;
	}
	if (*first == '#') {
		ps->prog->ncomments++;
		return 1;
	}
	return 0;
}

static void dispatch(struct parser *ps, char *line)
{
	if (ps->lineno > UINT32_MAX) {
		lf_error(ps, "too many lines (more than %u)", UINT32_MAX);
		return;
	}
	ps->reader->line(ps, line);
}

#define MAX_LINE (16u << 20)    /* a longer line is not a loadfile line */
#define GIVE_UP_ERRORS 1000     /* errors after which reading stops */
#define READ_CHUNK (64u << 10)  /* the first size of the line buffer: the
				 * parser's read buffers are most of the
				 * parent's peak anonymous memory */

/* The input, read in chunks into a buffer of its own (mmap'd, so that
 * nothing of it stays in the heap every client inherits) and cut into
 * lines with memchr: a line is handed out in place, its '\n' replaced by
 * the NUL.  The buffer grows only for a line longer than it, up to
 * MAX_LINE + 2 bytes (a line of more than MAX_LINE bytes is an error). */
struct linebuf {
	FILE *in;
	char *buf;
	size_t cap;
	size_t start, end;      /* unread input: buf[start..end) */
	int at_eof;             /* in gave all it has (or failed: ferror says) */
};

static int linebuf_init(struct linebuf *lb, FILE *in)
{
	*lb = (struct linebuf){ .in = in, .cap = READ_CHUNK };
	lb->buf = mmap(NULL, lb->cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (lb->buf == MAP_FAILED) {
		lb->buf = NULL;
		return -1;
	}
	return 0;
}

static void linebuf_free(struct linebuf *lb)
{
	if (lb->buf)
		munmap(lb->buf, lb->cap);
	lb->buf = NULL;
}

/* Read more input after what is unread, moving that to the front and
 * doubling the buffer when it is full.  Returns 0, or -1 when no more
 * room can be had (error reported). */
static int linebuf_fill(struct parser *ps, struct linebuf *lb)
{
	size_t have = lb->end - lb->start;
	if (lb->start) {
		memmove(lb->buf, lb->buf + lb->start, have);
		lb->start = 0;
		lb->end = have;
	}
	if (lb->end + 1 >= lb->cap) {
		size_t ncap = lb->cap * 2 > MAX_LINE + 2 ? MAX_LINE + 2 : lb->cap * 2;
		char *nb = mremap(lb->buf, lb->cap, ncap, MREMAP_MAYMOVE);
		if (nb == MAP_FAILED) {
			lf_error(ps, "out of memory reading a line");
			return -1;
		}
		lb->buf = nb;
		lb->cap = ncap;
	}
	/* one byte stays free: the NUL after a last line with no '\n' */
	size_t n = fread(lb->buf + lb->end, 1, lb->cap - lb->end - 1, lb->in);
	if (n == 0)
		lb->at_eof = 1;
	lb->end += n;
	return 0;
}

/* The next line, NUL-terminated, in *line (inside lb's buffer, valid until
 * the next call), its line end stripped.  Returns 1 for a line, 0 at the
 * end of the file or when reading must stop (*eof set), -1 (error
 * reported) for a line that must be skipped. */
/* Is s[0..len) text whose lines end in CR: nothing but printable bytes,
 * tabs and carriage returns (a binary file is not, and is reported by
 * its NUL bytes or its lines instead)? */
static int cr_text(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c != '\r' && c != '\t' && (c < 0x20 || c == 0x7f))
			return 0;
	}
	return 1;
}

static int next_line(struct parser *ps, struct linebuf *lb, char **line, int *eof)
{
	if (ps->nerrors >= GIVE_UP_ERRORS) {
		if (ps->errs)
			fprintf(ps->errs, "%s: stopped reading after %u errors (not a loadfile?)\n",
				ps->name, ps->nerrors);
		*eof = 1;
		return 0;
	}
	char *s, *nl;
	size_t len;
	for (;;) {
		s = lb->buf + lb->start;
		len = lb->end - lb->start;
		nl = memchr(s, '\n', len);
		if (nl) {
			len = (size_t)(nl - s);
			lb->start += len + 1;
			break;
		}
		if (len > MAX_LINE)
			break;
		if (lb->at_eof) {
			/* after a read error (a cut gzip stream), what is left
			 * is a cut line: the caller reports the error alone */
			if (!len || ferror(lb->in)) {
				*eof = 1;
				return 0;
			}
			lb->start = lb->end;  /* the last line, with no '\n' */
			break;
		}
		if (linebuf_fill(ps, lb) < 0) {
			*eof = 1;
			return 0;
		}
	}
	ps->lineno++;
	if (len > MAX_LINE) {
		lf_error(ps, "line longer than %u MiB (not a text loadfile?)", MAX_LINE >> 20);
		*eof = 1;
		return 0;
	}
	while (len > 0 && s[len - 1] == '\r')
		len--;
	if (ps->lineno == 1 && memchr(s, '\r', len) && cr_text(s, len)) {
		/* lines that end in CR alone: the whole file reads as line 1 */
		lf_error(ps, "carriage return inside the line: lines end with LF or CRLF, not CR alone");
		*eof = 1;
		return -1;
	}
	s[len] = '\0';
	if (ps->lineno == 1 && len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3)) {
		/* a UTF-8 byte order mark is not part of the first token */
		s += 3;
		len -= 3;
	}
	*line = s;
	if (memchr(s, '\0', len)) {
		if (!ps->holding)
			lf_error(ps, "NUL byte in line (not a text loadfile?)");
		return ps->holding ? 2 : -1;
	}
	return 1;
}

struct held {
	char *text;          /* NULL: a line with a NUL byte, reported in turn */
	uint64_t lineno;
};

/* The formats, in the order they are asked whether the first operation
 * lines are theirs; the last claims every file. */
static const struct lf_reader *const readers[] = {
	&lf_reader_dbench1,
	&lf_reader_dbench2,
	&lf_reader_dbench4,
};
#define NREADERS (sizeof(readers) / sizeof(readers[0]))

static const struct lf_reader *reader_of(enum lf_format f)
{
	for (size_t i = 0; i < NREADERS; i++)
		if (readers[i]->format == f)
			return readers[i];
	return NULL;
}

/* Decide the format from the first operation lines. */
static const struct lf_reader *detect(struct held *h, size_t n)
{
	char *lines[DETECT_LINES];
	for (size_t i = 0; i < n; i++)
		lines[i] = h[i].text;
	for (size_t i = 0; i + 1 < NREADERS; i++)
		if (readers[i]->looks(lines, n))
			return readers[i];
	return readers[NREADERS - 1];
}

/* Start reading with reader r: its state, zeroed, then its begin(). */
static int start_reader(struct parser *ps, const struct lf_reader *r)
{
	ps->reader = r;
	if (r->state_size && !(ps->state = calloc(1, r->state_size))) {
		lf_error(ps, "out of memory");
		return -1;
	}
	if (r->begin)
		r->begin(ps);
	return 0;
}
static void run_lines(struct parser *ps, FILE *in)
{
	struct linebuf lb;
	char *line = NULL;
	int eof = 0, r;

	if (linebuf_init(&lb, in) < 0) {
		lf_error(ps, "out of memory reading a line");
		return;
	}

	if (!ps->reader) {
		/* hold the first operation lines, decide, then replay them */
		struct held held[DETECT_LINES];
		size_t nheld = 0;
		ps->holding = 1;
		while (nheld < DETECT_LINES && !eof) {
			r = next_line(ps, &lb, &line, &eof);
			if (r <= 0 || (r == 1 && blank_or_comment(ps, line)))
				continue;
			held[nheld].text = r == 1 ? strdup(line) : NULL;
			held[nheld].lineno = ps->lineno;
			if (r == 1 && !held[nheld].text) {
				lf_error(ps, "out of memory");
				break;
			}
			nheld++;
		}
		ps->holding = 0;
		int ok = start_reader(ps, detect(held, nheld)) == 0;
		uint64_t at = ps->lineno;
		for (size_t i = 0; i < nheld; i++) {
			ps->lineno = held[i].lineno;
			if (!held[i].text)
				lf_error(ps, "NUL byte in line (not a text loadfile?)");
			else if (ok && !ps->io_failed)
				dispatch(ps, held[i].text);
			free(held[i].text);
		}
		ps->lineno = at;
		if (!ok) {
			linebuf_free(&lb);
			return;
		}
	}
	while (!eof && !ps->io_failed) {
		r = next_line(ps, &lb, &line, &eof);
		if (r <= 0 || blank_or_comment(ps, line))
			continue;
		dispatch(ps, line);
	}
	linebuf_free(&lb);
	if (ps->reader->end)
		ps->reader->end(ps);
}

int loadfile_parse_stream(FILE *in, const char *name, enum lf_format format,
			  struct program *prog, FILE *errs, unsigned max_errors)
{
	struct parser *ps = calloc(1, sizeof(*ps));
	memset(prog, 0, sizeof(*prog));
	prog->fd = -1;
	if (!ps) {
		if (errs)
			fprintf(errs, "%s: out of memory\n", name);
		return -1;
	}
	prog->fd = memfd_create("kbench-program", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (prog->fd < 0) {
		if (errs)
			fprintf(errs, "kbench load: %s: cannot create program memory: %s\n", name, strerror(errno));
		free(ps);
		return -1;
	}
	ps->name = name;
	ps->errs = errs;
	ps->max_errors = max_errors;
	ps->prog = prog;

	int rc = 0;
	if (format != LF_AUTO && (!reader_of(format) || start_reader(ps, reader_of(format)) < 0))
		rc = -1;
	else
		run_lines(ps, in);
	if (ferror(in)) {
		if (errs)
			fprintf(errs, "kbench load: %s: read error: %s\n", name,
				gz_error[0] ? gz_error : strerror(errno ? errno : EIO));
		rc = -1;
	}
	gz_error[0] = '\0';
	prog->nlines = ps->lineno;
	prog->format = ps->reader ? ps->reader->format : LF_AUTO;

	if (!rc && !ps->nerrors && !ps->io_failed && ps->nbatch && lf_flush(ps) < 0)
		ps->io_failed = errno ? errno : EIO;
	if (!rc && ps->io_failed) {
		if (errs)
			fprintf(errs, "%s: cannot store program: %s\n", name, strerror(ps->io_failed));
		rc = -1;
	}
	if (!rc && !ps->nerrors && prog->nops == 0) {
		ps->nerrors++;
		if (errs && prog->nlines)
			fprintf(errs, "%s:%llu: no operations in loadfile\n", name,
				(unsigned long long)prog->nlines);
		else if (errs)
			fprintf(errs, "%s: no operations in loadfile (an empty file)\n", name);
	}
	if (!rc && ps->nerrors) {
		if (errs && ps->nerrors > ps->max_errors)
			fprintf(errs, "%s: %u more errors not shown\n", name,
				ps->nerrors - ps->max_errors);
		rc = (int)(ps->nerrors > INT32_MAX ? INT32_MAX : ps->nerrors);
	}
	lf_tables_free(ps);
	free(ps->state);
	free(ps);
	if (rc) {
		prog_free(prog);
		return rc;
	}
	fcntl(prog->fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
	prog->source = strdup(name);
	return 0;
}

/* stdio over zlib: gzread passes files that are not gzip through as they
 * are, so one reader serves plain and compressed loadfiles alike */
static ssize_t gz_cookie_read(void *cookie, char *buf, size_t size)
{
	unsigned want = size > (1u << 30) ? 1u << 30 : (unsigned)size;
	int n = gzread((gzFile)cookie, buf, want);
	int zerr = Z_OK;
	const char *msg = gzerror((gzFile)cookie, &zerr);
	if (n < 0 || (n == 0 && zerr != Z_OK)) {
		if (zerr == Z_ERRNO) {
			snprintf(gz_error, sizeof(gz_error), "%s", strerror(errno));
		} else {
			/* e.g. a truncated file: "unexpected end of file"; zlib
			 * names the file "<fd:N>", which says nothing here */
			if (!strncmp(msg, "<fd:", 4) && strstr(msg, ": "))
				msg = strstr(msg, ": ") + 2;
			snprintf(gz_error, sizeof(gz_error), "gzip: %s", msg);
			errno = EBADMSG;
		}
		return -1;
	}
	return n;
}

static int gz_cookie_close(void *cookie)
{
	return gzclose_r((gzFile)cookie) == Z_OK ? 0 : -1;
}

/* zlib's gzread ends at the last gzip member and passes over whatever
 * follows it without a word; those bytes are no line of the loadfile, and
 * nothing may be dropped silently.  So a gzip file is walked member by
 * member first (inflate only, nothing kept).  Returns the number of bytes
 * after the last member (0: none, or not a gzip file), or -1 when the
 * file cannot be read that way (gzread then reports why). */
static off_t after_gzip(int fd)
{
	unsigned char in[64 * 1024], out[64 * 1024], magic[2];
	struct stat st;
	z_stream z;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || pread(fd, magic, 2, 0) != 2 ||
	    magic[0] != 0x1f || magic[1] != 0x8b)
		return 0;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 16) != Z_OK)
		return -1;
	off_t at = 0, rest = -1;
	for (;;) {
		if (z.avail_in == 0) {
			ssize_t n = pread(fd, in, sizeof(in), at);
			if (n <= 0)
				break;  /* cut short or unreadable: gzread says so */
			at += n;
			z.next_in = in;
			z.avail_in = (uInt)n;
		}
		z.next_out = out;
		z.avail_out = sizeof(out);
		int r = inflate(&z, Z_NO_FLUSH);
		if (r != Z_STREAM_END) {
			if (r != Z_OK && r != Z_BUF_ERROR)
				break;  /* corrupt: gzread says so */
			continue;
		}
		/* a member ended: the file ends, another member starts, or the
		 * bytes left are not gzip */
		off_t next = at - (off_t)z.avail_in;
		if (next == st.st_size) {
			rest = 0;
			break;
		}
		if (pread(fd, magic, 2, next) != 2 || magic[0] != 0x1f || magic[1] != 0x8b) {
			rest = st.st_size - next;
			break;
		}
		inflateReset(&z);
	}
	inflateEnd(&z);
	return rest;
}

int loadfile_load(const char *path, enum lf_format format, struct program *prog,
		  FILE *errs, unsigned max_errors)
{
	memset(prog, 0, sizeof(*prog));
	prog->fd = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errs)
			fprintf(errs, "kbench load: %s: cannot open loadfile: %s\n", path, strerror(errno));
		return -1;
	}
	off_t rest = after_gzip(fd);
	if (rest > 0) {
		if (errs)
			fprintf(errs, "kbench load: %s: %lld bytes after the end of the gzip data, which are not "
				"loadfile lines\n", path, (long long)rest);
		close(fd);
		return 1;
	}
	gzFile gz = gzdopen(fd, "rb");
	if (!gz) {
		close(fd);
		if (errs)
			fprintf(errs, "kbench load: %s: cannot open loadfile: out of memory\n", path);
		return -1;
	}
	gzbuffer(gz, 32 * 1024);  /* zlib takes it and twice it for its output */
	cookie_io_functions_t io = { .read = gz_cookie_read, .close = gz_cookie_close };
	FILE *in = fopencookie(gz, "r", io);
	if (!in) {
		gzclose_r(gz);
		if (errs)
			fprintf(errs, "kbench load: %s: cannot open loadfile: %s\n", path, strerror(errno));
		return -1;
	}
	int rc = loadfile_parse_stream(in, path, format, prog, errs, max_errors);
	fclose(in);
	return rc;
}

int loadfile_sum(const char *path, uint32_t *crc, uint64_t *size)
{
	static unsigned char buf[64 * 1024];
	/* a pipe or device is not read here: its bytes are the parse's */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	uLong c = crc32(0L, Z_NULL, 0);
	uint64_t n = 0;
	struct stat st;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	for (;;) {
		ssize_t got = read(fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		if (got == 0)
			break;
		c = crc32(c, buf, (uInt)got);
		n += (uint64_t)got;
	}
	close(fd);
	*crc = (uint32_t)c;
	*size = n;
	return 0;
}

int lf_format_parse(const char *s, enum lf_format *out)
{
	if (strcmp(s, "auto") == 0) {
		*out = LF_AUTO;
		return 0;
	}
	for (size_t i = 0; i < NREADERS; i++)
		if (strcmp(s, readers[i]->name) == 0 ||
		    (readers[i]->alias && strcmp(s, readers[i]->alias) == 0)) {
			*out = readers[i]->format;
			return 0;
		}
	return -1;
}

const char *lf_format_name(enum lf_format f)
{
	const struct lf_reader *r = reader_of(f);
	return r ? r->name : "auto";
}
