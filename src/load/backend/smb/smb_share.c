/* kbench - -B smb: the target (--smb-share, --smb-user, -D), checked and reached
 * once in prepare(); the release and the name reports give it
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#ifdef HAVE_LIBSMBCLIENT

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <unistd.h>
#include "cli.h"
#include "load/backend/smb/smb_int.h"

/* ---- the parent: the target, checked once; the cleanup ---- */

/* Copy s[0..n) into dst (cap bytes).  Returns 0, or -1 if it does not fit. */
static int copy_part(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap)
		return -1;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

/* //SERVER[:PORT]/SHARE (or with backslashes).  Returns 0, or -1 after
 * the line saying what is wrong. */
static int parse_share(struct smb_target *t, const char *s, const char *cmd)
{
	const char *p = s;
	if (!((p[0] == '/' || p[0] == '\\') && (p[1] == '/' || p[1] == '\\')))
		goto bad;
	p += 2;
	size_t n = strcspn(p, "/\\");
	const char *colon = memchr(p, ':', n);
	size_t sn = colon ? (size_t)(colon - p) : n;
	if (!sn || copy_part(t->server, sizeof(t->server), p, sn) < 0 ||
	    strpbrk(t->server, "@;"))
		goto bad;
	if (colon) {
		uint64_t port;
		char num[8];
		if (copy_part(num, sizeof(num), colon + 1, n - sn - 1) < 0 ||
		    cli_parse_uint(num, 1, 65535, &port) < 0) {
			fprintf(stderr, "%s: --smb-share '%s': bad port (1 to 65535)\n", cmd, s);
			return -1;
		}
		t->port = (unsigned)port;
	}
	p += n;
	if (!*p)
		goto bad;
	p++;
	n = strcspn(p, "/\\");
	if (!n || copy_part(t->share, sizeof(t->share), p, n) < 0)
		goto bad;
	p += n;
	while (*p == '/' || *p == '\\')
		p++;
	if (*p) {
		fprintf(stderr, "%s: --smb-share '%s': a share, not a path in it (give that "
			"as -D)\n", cmd, s);
		return -1;
	}
	return 0;
bad:
	fprintf(stderr, "%s: --smb-share '%s': not //SERVER[:PORT]/SHARE\n", cmd, s);
	return -1;
}

/* [DOMAIN/]USER[%PASSWORD] (or DOMAIN\USER); without '%', the password
 * of $PASSWD, as smbclient. */
static int parse_user(struct smb_target *t, const char *s, const char *what, const char *cmd)
{
	const char *pct = strchr(s, '%');
	size_t n = pct ? (size_t)(pct - s) : strlen(s);
	const char *sep = NULL;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '/' || s[i] == '\\')
			sep = s + i;
	const char *u = sep ? sep + 1 : s;
	size_t un = n - (size_t)(u - s);
	const char *pw = pct ? pct + 1 : getenv("PASSWD");
	if ((sep && copy_part(t->domain, sizeof(t->domain), s, (size_t)(sep - s)) < 0) ||
	    copy_part(t->user, sizeof(t->user), u, un) < 0 ||
	    (pw && copy_part(t->password, sizeof(t->password), pw, strlen(pw)) < 0)) {
		fprintf(stderr, "%s: %s: too long\n", cmd, what);
		return -1;
	}
	if (!un) {
		fprintf(stderr, "%s: %s: no user name ([DOMAIN/]USER%%PASSWORD)\n", cmd, what);
		return -1;
	}
	return 0;
}

#define SMB_USER_FILE_MAX 65536

/* smbclient -A's file: "username = U", "password = P", "domain = D",
 * one a line; blank lines and '#' comments.  Never echoes a value. */
static int read_user_file(struct smb_target *t, const char *file, const char *cmd)
{
	FILE *f = fopen(file, "re");
	if (!f) {
		fprintf(stderr, "%s: --smb-user-file %s: %s\n", cmd, file, strerror(errno));
		return -1;
	}
	/* a few short lines: a device or FIFO (/dev/zero) or a big file is
	 * not one, and would never end */
	struct stat st;
	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > SMB_USER_FILE_MAX) {
		fprintf(stderr, "%s: --smb-user-file %s: not a regular file of at most %d bytes\n",
			cmd, file, SMB_USER_FILE_MAX);
		fclose(f);
		return -1;
	}
	char line[1024];
	unsigned lineno = 0;
	int rc = 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		lineno++;
		char *p = line, *end = line + strlen(line);
		while (end > p && isspace((unsigned char)end[-1]))
			*--end = '\0';
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			continue;
		char *eq = strchr(p, '=');
		char *k = p, *ke = eq ? eq : p;
		while (ke > k && isspace((unsigned char)ke[-1]))
			ke--;
		char *v = eq ? eq + 1 : NULL;
		while (v && isspace((unsigned char)*v))
			v++;
		size_t kn = (size_t)(ke - k);
		char *dst = NULL;
		size_t cap = 0;
		if (v && kn == 8 && !strncmp(k, "username", 8))
			dst = t->user, cap = sizeof(t->user);
		else if (v && kn == 8 && !strncmp(k, "password", 8))
			dst = t->password, cap = sizeof(t->password);
		else if (v && kn == 6 && !strncmp(k, "domain", 6))
			dst = t->domain, cap = sizeof(t->domain);
		if (!dst) {
			fprintf(stderr, "%s: --smb-user-file %s:%u: not username=, password= "
				"or domain=\n", cmd, file, lineno);
			rc = -1;
		} else if (copy_part(dst, cap, v, strlen(v)) < 0) {
			fprintf(stderr, "%s: --smb-user-file %s:%u: value too long\n", cmd, file,
				lineno);
			rc = -1;
		}
	}
	if (!rc && ferror(f)) {
		fprintf(stderr, "%s: --smb-user-file %s: %s\n", cmd, file, strerror(errno));
		rc = -1;
	}
	fclose(f);
	/* "username = USER%PASSWORD", as on the command line: the password is
	 * never part of the user name kbench shows */
	char *pct = strchr(t->user, '%');
	if (pct) {
		if (!t->password[0])
			copy_part(t->password, sizeof(t->password), pct + 1, strlen(pct + 1));
		memset(pct, 0, strlen(pct));
	}
	if (!rc && !t->user[0]) {
		fprintf(stderr, "%s: --smb-user-file %s: no username= line\n", cmd, file);
		rc = -1;
	}
	return rc;
}

/* -D as a path inside the share: components joined by '/', no "..". */
static int parse_dir(struct smb_target *t, const char *d, const char *cmd)
{
	size_t n = 0;
	for (const char *p = d; *p;) {
		while (*p == '/' || *p == '\\')
			p++;
		size_t len = strcspn(p, "/\\");
		if (!len)
			break;
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			fprintf(stderr, "%s: -D '%s': '..' climbs out of the share\n", cmd, d);
			return -1;
		}
		if (!(len == 1 && p[0] == '.')) {
			if (n + len + 2 > sizeof(t->dir)) {
				fprintf(stderr, "%s: -D '%s': too long\n", cmd, d);
				return -1;
			}
			if (n)
				t->dir[n++] = '/';
			memcpy(t->dir + n, p, len);
			n += len;
			t->dir[n] = '\0';
		}
		p += len;
	}
	return 0;
}

static void set_root_url(struct smb_target *t)
{
	size_t n = (size_t)snprintf(t->root_url, sizeof(t->root_url), "smb://%s/", t->server);
	smb_url_append(t->root_url, &n, t->share);
	if (t->dir[0]) {
		t->root_url[n++] = '/';
		t->root_url[n] = '\0';
		smb_url_append(t->root_url, &n, t->dir);
	}
	char port[16] = "";
	if (t->port)
		snprintf(port, sizeof(port), ":%u", t->port);
	snprintf(t->shown, sizeof(t->shown), "//%s%s/%s%s%s", t->server, port, t->share,
		 t->dir[0] ? "/" : "", t->dir);
}

/* One line for a failure to reach the share as the login given. */
static void say_unreached(const struct smb_target *t, int e, const char *cmd)
{
	char port[16] = "";
	if (t->port)
		snprintf(port, sizeof(port), ":%u", t->port);
	const char *why;
	switch (e) {
	case EACCES: case EPERM:
		why = "login refused or access denied";
		break;
	case ENOENT: case ENODEV: case ENXIO:
		why = "no such share";
		break;
	case ECONNREFUSED: case ETIMEDOUT: case EHOSTUNREACH: case ENETUNREACH:
		why = "server unreachable";
		break;
	default:
		why = "cannot reach the share";
	}
	fprintf(stderr, "%s: -B smb: //%s%s/%s as %s%s%s: %s (%s)\n", cmd, t->server, port,
		t->share, t->domain[0] ? t->domain : "", t->domain[0] ? "/" : "",
		t->user[0] ? t->user : "(anonymous)", why, strerror(e));
}

static void wipe(struct smb_target *t)
{
	explicit_bzero(t->password, sizeof(t->password));
	for (size_t i = 0; i < t->nnoted; i++)
		free(t->noted[i]);
	free(t->noted);
	trees_free(&t->trees);
	free(t);
}

/* The options into t: the share, the login (--smb-user, --smb-user-file,
 * or $USER), -D.  Returns 0, or KB_EXIT_USAGE after one line. */
static int parse_target(struct smb_target *t, const struct backend_opts *o, const char *cmd)
{
	if (!smb_opts_of(o)->share) {
		fprintf(stderr, "%s: -B smb needs --smb-share //SERVER/SHARE\n", cmd);
		return KB_EXIT_USAGE;
	}
	if (smb_opts_of(o)->user && smb_opts_of(o)->user_file) {
		fprintf(stderr, "%s: --smb-user and --smb-user-file: give one\n", cmd);
		return KB_EXIT_USAGE;
	}
	const char *no = o->sync_open ? "-s (write-through opens)" :
			 o->sync_dirs ? "-S (fsync of directories)" :
			 o->fsync_write ? "-F (fsync after WriteX)" :
			 o->xattr ? "-x (DOS attributes in xattrs)" : NULL;
	if (no) {
		fprintf(stderr, "%s: -B smb cannot do %s: libsmbclient has no call for it\n", cmd, no);
		return KB_EXIT_USAGE;
	}
	int bad = parse_share(t, smb_opts_of(o)->share, cmd) < 0;
	if (!bad && smb_opts_of(o)->user)
		bad = parse_user(t, smb_opts_of(o)->user, "--smb-user", cmd) < 0;
	else if (!bad && smb_opts_of(o)->user_file)
		bad = read_user_file(t, smb_opts_of(o)->user_file, cmd) < 0;
	else if (!bad && getenv("USER"))
		bad = parse_user(t, getenv("USER"), "$USER", cmd) < 0;
	if (!bad && o->directory)
		bad = parse_dir(t, o->directory, cmd) < 0;
	return bad ? KB_EXIT_USAGE : 0;
}

/* Run fn on the target the options make, then wipe it.  Returns fn's
 * result, or KB_EXIT_USAGE after one line when they make none. */
static int with_target(const struct backend_opts *o, const char *cmd,
		       int (*fn)(const struct smb_target *t, void *arg), void *arg)
{
	struct smb_target *t = calloc(1, sizeof(*t));
	if (!t) {
		fprintf(stderr, "%s: out of memory\n", cmd);
		return KB_EXIT_USAGE;
	}
	int status = parse_target(t, o, cmd);
	if (!status && fn)
		status = fn(t, arg);
	wipe(t);
	return status;
}

int smb_check(const struct backend_opts *o, const char *cmd)
{
	return with_target(o, cmd, NULL, NULL);
}

struct where {
	char *host, *port;
	size_t hostlen, portlen;
};

static int target_where(const struct smb_target *t, void *arg)
{
	struct where *w = arg;
	if ((size_t)snprintf(w->host, w->hostlen, "%s", t->server) >= w->hostlen ||
	    (size_t)snprintf(w->port, w->portlen, "%u", t->port ? t->port : SMB_PORT) >= w->portlen)
		return -1;
	return 0;
}

int smb_endpoint(const struct backend_opts *o, char *host, size_t hostlen, char *port,
		 size_t portlen)
{
	struct where w = { host, port, hostlen, portlen };
	return with_target(o, "kbench load", target_where, &w) ? -1 : 0;
}

int smb_prepare(struct backend_opts *o, unsigned nclients, const char *cmd)
{
	struct smb_target *t = calloc(1, sizeof(*t));
	if (!t) {
		fprintf(stderr, "%s: out of memory\n", cmd);
		return KB_EXIT_USAGE;
	}
	int status = parse_target(t, o, cmd);
	if (status) {
		wipe(t);
		return status;
	}
	if (!o->directory) {
		snprintf(t->dir, sizeof(t->dir), "kbench-%ld", (long)getpid());
		t->made_dir = 1;
	}
	/* the options are good: now the library, before anything is sent */
	if (libsmb_load(cmd) < 0) {
		wipe(t);
		return KB_EXIT_USAGE;
	}

	SMBCCTX *x = smb_new_context(t);
	if (!x) {
		fprintf(stderr, "%s: -B smb: cannot set up libsmbclient: %s\n", cmd, strerror(errno));
		wipe(t);
		return KB_EXIT_USAGE;
	}
	/* the share's root: the connection, the login and the share */
	struct stat st;
	char url[URL_MAX];
	size_t n = (size_t)snprintf(url, sizeof(url), "smb://%s/", t->server);
	smb_url_append(url, &n, t->share);
	status = KB_EXIT_OK;
	errno = 0;
	if (libsmb.smbc_getFunctionStat(x)(x, url, &st) < 0) {
		say_unreached(t, errno ? errno : EIO, cmd);
		status = KB_EXIT_USAGE;
	}
	set_root_url(t);
	if (!status && t->made_dir) {
		errno = 0;
		if (libsmb.smbc_getFunctionMkdir(x)(x, t->root_url, 0777) < 0) {
			fprintf(stderr, "%s: -B smb: cannot make %s: %s\n", cmd, t->shown,
				strerror(errno ? errno : EIO));
			status = KB_EXIT_USAGE;
		}
	} else if (!status) {
		errno = 0;
		if (libsmb.smbc_getFunctionStat(x)(x, t->root_url, &st) < 0 || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "%s: -D %s: %s\n", cmd, t->shown,
				errno ? strerror(errno) : "not a directory");
			status = KB_EXIT_USAGE;
		} else {
			int e = smb_note_dir(x, t);
			if (e) {
				fprintf(stderr, "%s: -D %s: cannot list it: %s\n", cmd, t->shown,
					strerror(e));
				status = KB_EXIT_USAGE;
			}
		}
	}
	if (!status)
		status = smb_claim_trees(x, t, nclients, cmd);
	if (!status)
		smb_note_since(x, t);
	/* the clients make their own connections: none is inherited */
	libsmb.smbc_free_context(x, 1);
	if (status) {
		wipe(t);
		return status;
	}
	o->target = t;
	return KB_EXIT_OK;
}

void smb_release(struct backend_opts *o)
{
	if (o->target)
		wipe(o->target);
	o->target = NULL;
}

const char *smb_describe(const struct backend_opts *o)
{
	const struct smb_target *t = o->target;
	return t ? t->shown : smb_opts_of(o)->share;
}

#endif /* HAVE_LIBSMBCLIENT */
