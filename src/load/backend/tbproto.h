/* kbench - what the tbench client (-B sockio) and kbench server share
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tbench's protocol (dbench's sockio.c and tbench_srv.c, facts only): over
 * one TCP connection a client sends a request whose first two 32-bit
 * big-endian words are the number of bytes that follow the first word and
 * the number of bytes the reply is to carry after its own first word; the
 * server reads the whole request and answers with a reply of that size
 * whose first word is its length.  Both sides hold at most 70,000 bytes of
 * a message; tbench_srv listens on TCP port 7003, and both set dbench's
 * socket options (-T words, default "TCP_NODELAY SO_REUSEADDR").
 */
#ifndef KBENCH_TBENCH_H
#define KBENCH_TBENCH_H

#include <stddef.h>
#include <sys/socket.h>

#define TB_PORT "7003"         /* tbench_srv's fixed port, and tbench's */
#define TB_MAX_MSG 70000u      /* bytes of a whole request or reply, at most
				* (tbench_srv's and tbench's buffer) */
#define TB_DEFAULT_OPTIONS "TCP_NODELAY SO_REUSEADDR"  /* dbench's TCP_OPTIONS */

#define TB_MAX_OPTS 16

/* One socket option of -T: setsockopt(level, name, &value, sizeof(int)). */
struct tb_opt {
	const char *word;      /* dbench's word, e.g. "SO_SNDBUF" (static) */
	int level, name, value;
};

struct tb_opts {
	struct tb_opt opt[TB_MAX_OPTS];
	unsigned n;
};

/* Parse -T's words, separated by spaces, tabs or commas, as dbench does:
 * TCP_NODELAY, SO_KEEPALIVE, SO_REUSEADDR, SO_BROADCAST (on, or WORD=0 to
 * turn off), IPTOS_LOWDELAY, IPTOS_THROUGHPUT (no value), SO_SNDBUF=N,
 * SO_RCVBUF=N, SO_SNDLOWAT=N, SO_RCVLOWAT=N (bytes).  dbench warns about an
 * unknown word and goes on; here it is bad input.  SO_SNDTIMEO and
 * SO_RCVTIMEO are refused: kbench bounds every read and write itself.
 * Returns 0, or -1 with a one-line reason in err (errlen bytes). */
int tb_opts_parse(const char *words, struct tb_opts *out, char *err, size_t errlen);

/* Set every option of o on socket fd of address family family (the IPTOS
 * words become IPV6_TCLASS on an IPv6 socket).  Returns 0, or -1 with
 * errno set and *failed naming the word that could not be set. */
int tb_opts_apply(int fd, int family, const struct tb_opts *o, const char **failed);

/* Split HOST[:PORT], [IPV6]:PORT, [IPV6] or a bare IPv6 address (more
 * than one ':') into host and port (defport when none is given; a port is
 * 1 to 65535, decimal).  Returns 0, or -1 with a reason in err. */
int tb_split_hostport(const char *s, const char *defport, char *host, size_t hostlen,
		      char *port, size_t portlen, char *err, size_t errlen);

/* "127.0.0.1:7003" or "[::1]:7003" for an AF_INET or AF_INET6 address
 * ("?" for another family), into out (len bytes; 64 is enough). */
void tb_addr_str(const struct sockaddr *sa, socklen_t salen, char *out, size_t len);

/* Store v as a 32-bit big-endian word at p, and read one. */
static inline void tb_put32(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static inline unsigned tb_get32(const unsigned char *p)
{
	return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 | p[3];
}

#endif
