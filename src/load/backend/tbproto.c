/* kbench - tbench's socket options and addresses, for -B sockio and kbench server
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The words of -T are dbench's (its socklib.c table: the name, the level
 * and option it sets, whether it takes a value); the parsing is ours and
 * stricter: an unknown word or a bad value is bad input.
 */
#include "config.h"
#include "load/backend/tbproto.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum kind { BOOL, INT, ON };

static const struct {
	const char *word;
	int level, name, value;
	enum kind kind;
} words[] = {
	{ "SO_KEEPALIVE", SOL_SOCKET, SO_KEEPALIVE, 0, BOOL },
	{ "SO_REUSEADDR", SOL_SOCKET, SO_REUSEADDR, 0, BOOL },
	{ "SO_BROADCAST", SOL_SOCKET, SO_BROADCAST, 0, BOOL },
	{ "TCP_NODELAY", IPPROTO_TCP, TCP_NODELAY, 0, BOOL },
	{ "IPTOS_LOWDELAY", IPPROTO_IP, IP_TOS, IPTOS_LOWDELAY, ON },
	{ "IPTOS_THROUGHPUT", IPPROTO_IP, IP_TOS, IPTOS_THROUGHPUT, ON },
	{ "SO_SNDBUF", SOL_SOCKET, SO_SNDBUF, 0, INT },
	{ "SO_RCVBUF", SOL_SOCKET, SO_RCVBUF, 0, INT },
	{ "SO_SNDLOWAT", SOL_SOCKET, SO_SNDLOWAT, 0, INT },
	{ "SO_RCVLOWAT", SOL_SOCKET, SO_RCVLOWAT, 0, INT },
};

#define NWORDS (sizeof(words) / sizeof(words[0]))

static int one(const char *tok, size_t n, struct tb_opts *out, char *err, size_t errlen)
{
	const char *eq = memchr(tok, '=', n);
	size_t wlen = eq ? (size_t)(eq - tok) : n;
	if (wlen == 11 && (!strncasecmp(tok, "SO_SNDTIMEO", 11) || !strncasecmp(tok, "SO_RCVTIMEO", 11))) {
		snprintf(err, errlen, "%.11s is not taken: kbench bounds every read and write "
			 "by the run's end itself", tok);
		return -1;
	}
	size_t i;
	for (i = 0; i < NWORDS; i++)
		if (strlen(words[i].word) == wlen && !strncasecmp(words[i].word, tok, wlen))
			break;
	if (i == NWORDS) {
		snprintf(err, errlen, "unknown socket option '%.*s' (TCP_NODELAY, SO_KEEPALIVE, "
			 "SO_REUSEADDR, SO_BROADCAST, IPTOS_LOWDELAY, IPTOS_THROUGHPUT, SO_SNDBUF=N, "
			 "SO_RCVBUF=N, SO_SNDLOWAT=N, SO_RCVLOWAT=N)", (int)(wlen > 40 ? 40 : wlen), tok);
		return -1;
	}
	long v = 1;
	if (eq) {
		char num[24];
		size_t vlen = n - wlen - 1;
		char *end;
		if (words[i].kind == ON) {
			snprintf(err, errlen, "%s takes no value", words[i].word);
			return -1;
		}
		if (vlen == 0 || vlen >= sizeof(num)) {
			snprintf(err, errlen, "%s: a whole number is needed after '='", words[i].word);
			return -1;
		}
		memcpy(num, eq + 1, vlen);
		num[vlen] = '\0';
		errno = 0;
		v = strtol(num, &end, 10);
		if (*end || errno || v < 0 || v > 0x7fffffff ||
		    (words[i].kind == BOOL && v > 1)) {
			snprintf(err, errlen, "%s: bad value '%s' (%s)", words[i].word, num,
				 words[i].kind == BOOL ? "0 or 1" : "bytes, 0 to 2^31-1");
			return -1;
		}
	} else if (words[i].kind == INT) {
		snprintf(err, errlen, "%s needs a value: %s=N", words[i].word, words[i].word);
		return -1;
	}
	if (out->n == TB_MAX_OPTS) {
		snprintf(err, errlen, "more than %d socket options", TB_MAX_OPTS);
		return -1;
	}
	out->opt[out->n++] = (struct tb_opt){ words[i].word, words[i].level, words[i].name,
					      words[i].kind == ON ? words[i].value : (int)v };
	return 0;
}

int tb_opts_parse(const char *s, struct tb_opts *out, char *err, size_t errlen)
{
	out->n = 0;
	while (*s) {
		s += strspn(s, " \t,");
		size_t n = strcspn(s, " \t,");
		if (n && one(s, n, out, err, errlen) < 0)
			return -1;
		s += n;
	}
	return 0;
}

int tb_opts_apply(int fd, int family, const struct tb_opts *o, const char **failed)
{
	for (unsigned i = 0; i < o->n; i++) {
		int level = o->opt[i].level, name = o->opt[i].name;
		if (level == IPPROTO_IP && name == IP_TOS && family == AF_INET6) {
			level = IPPROTO_IPV6;
			name = IPV6_TCLASS;
		}
		if (setsockopt(fd, level, name, &o->opt[i].value, sizeof(int)) < 0) {
			*failed = o->opt[i].word;
			return -1;
		}
	}
	return 0;
}

static int check_port(const char *p, char *err, size_t errlen)
{
	char *end;
	errno = 0;
	long v = strtol(p, &end, 10);
	if (!*p || *end || errno || v < 1 || v > 65535 || p[0] == '+' || p[0] == '-' || p[0] == ' ') {
		snprintf(err, errlen, "bad port '%.20s' (1 to 65535)", p);
		return -1;
	}
	return 0;
}

int tb_split_hostport(const char *s, const char *defport, char *host, size_t hostlen,
		      char *port, size_t portlen, char *err, size_t errlen)
{
	const char *h = s, *p = NULL;
	size_t hn;
	if (s[0] == '[') {
		const char *close = strchr(s, ']');
		if (!close || close == s + 1) {
			snprintf(err, errlen, "'%.60s': an IPv6 address in [] is not closed", s);
			return -1;
		}
		h = s + 1;
		hn = (size_t)(close - h);
		if (close[1] == ':')
			p = close + 2;
		else if (close[1]) {
			snprintf(err, errlen, "'%.60s': only ':PORT' may follow ']'", s);
			return -1;
		}
	} else {
		const char *colon = strchr(s, ':');
		if (colon && strchr(colon + 1, ':')) {
			hn = strlen(s);  /* a bare IPv6 address: no port */
		} else {
			hn = colon ? (size_t)(colon - s) : strlen(s);
			p = colon ? colon + 1 : NULL;
		}
	}
	if (hn == 0) {
		snprintf(err, errlen, "'%.60s': no host", s);
		return -1;
	}
	if (hn >= hostlen) {
		snprintf(err, errlen, "host name longer than %zu bytes", hostlen - 1);
		return -1;
	}
	memcpy(host, h, hn);
	host[hn] = '\0';
	if (p && check_port(p, err, errlen) < 0)
		return -1;
	snprintf(port, portlen, "%s", p ? p : defport);
	return 0;
}

void tb_addr_str(const struct sockaddr *sa, socklen_t salen, char *out, size_t len)
{
	char a[INET6_ADDRSTRLEN];
	if (sa->sa_family == AF_INET && salen >= sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
		inet_ntop(AF_INET, &in->sin_addr, a, sizeof(a));
		snprintf(out, len, "%s:%u", a, ntohs(in->sin_port));
	} else if (sa->sa_family == AF_INET6 && salen >= sizeof(struct sockaddr_in6)) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
		inet_ntop(AF_INET6, &in6->sin6_addr, a, sizeof(a));
		snprintf(out, len, "[%s]:%u", a, ntohs(in6->sin6_port));
	} else {
		snprintf(out, len, "?");
	}
}
