/* kbench - unit tests: what -B sockio and kbench server share: HOST[:PORT]
 * in every spelling, -T's words, addresses as text, the length words
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "load/backend/tbproto.h"

static void split_ok(const char *in, const char *host, const char *port)
{
	char h[64], p[8], err[200];
	assert_int_equal(tb_split_hostport(in, "7003", h, sizeof(h), p, sizeof(p), err, sizeof(err)), 0);
	assert_string_equal(h, host);
	assert_string_equal(p, port);
}

static void split_bad(const char *in, const char *why)
{
	char h[64], p[8], err[200] = "";
	assert_int_equal(tb_split_hostport(in, "7003", h, sizeof(h), p, sizeof(p), err, sizeof(err)), -1);
	assert_non_null(strstr(err, why));
}

static void test_hostport(void **state)
{
	(void)state;
	split_ok("127.0.0.1", "127.0.0.1", "7003");
	split_ok("127.0.0.1:9", "127.0.0.1", "9");
	split_ok("localhost:65535", "localhost", "65535");
	split_ok("::1", "::1", "7003");                /* a bare IPv6 address has no port */
	split_ok("fe80::1:2", "fe80::1:2", "7003");
	split_ok("[::1]", "::1", "7003");
	split_ok("[::1]:7004", "::1", "7004");
	split_bad("127.0.0.1:0", "bad port '0'");
	split_bad("127.0.0.1:65536", "bad port '65536'");
	split_bad("127.0.0.1:", "bad port ''");
	split_bad("host:+5", "bad port '+5'");
	split_bad("host:5x", "bad port '5x'");
	split_bad(":7003", "no host");
	split_bad("[]:7003", "not closed");
	split_bad("[::1", "not closed");
	split_bad("[::1]x", "only ':PORT' may follow ']'");
	char longname[300];
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	split_bad(longname, "host name longer than 63 bytes");
}

static void test_options(void **state)
{
	(void)state;
	struct tb_opts o;
	char err[300];
	assert_int_equal(tb_opts_parse(TB_DEFAULT_OPTIONS, &o, err, sizeof(err)), 0);
	assert_int_equal(o.n, 2);
	assert_int_equal(o.opt[0].level, IPPROTO_TCP);
	assert_int_equal(o.opt[0].name, TCP_NODELAY);
	assert_int_equal(o.opt[0].value, 1);
	assert_int_equal(o.opt[1].name, SO_REUSEADDR);

	/* dbench's separators, case, values, a word turned off */
	assert_int_equal(tb_opts_parse(" tcp_nodelay=0,\tSO_SNDBUF=65536 ,SO_RCVBUF=1 IPTOS_LOWDELAY ",
				       &o, err, sizeof(err)), 0);
	assert_int_equal(o.n, 4);
	assert_int_equal(o.opt[0].value, 0);
	assert_string_equal(o.opt[1].word, "SO_SNDBUF");
	assert_int_equal(o.opt[1].value, 65536);
	assert_int_equal(o.opt[2].name, SO_RCVBUF);
	assert_int_equal(o.opt[3].name, IP_TOS);
	assert_int_equal(o.opt[3].value, IPTOS_LOWDELAY);
	assert_int_equal(tb_opts_parse("", &o, err, sizeof(err)), 0);
	assert_int_equal(o.n, 0);

	const struct { const char *in, *why; } bad[] = {
		{ "TCP_NOPE", "unknown socket option 'TCP_NOPE'" },
		{ "SO_SNDBUF", "SO_SNDBUF needs a value" },
		{ "SO_SNDBUF=", "a whole number is needed" },
		{ "SO_SNDBUF=-1", "bad value '-1'" },
		{ "SO_SNDBUF=3000000000", "bad value '3000000000'" },
		{ "TCP_NODELAY=2", "bad value '2' (0 or 1)" },
		{ "IPTOS_LOWDELAY=1", "IPTOS_LOWDELAY takes no value" },
		{ "SO_RCVTIMEO=5", "SO_RCVTIMEO is not taken" },
		{ "so_sndtimeo", "is not taken" },
		{ "TCP_NODELAY TCP_NODELAY TCP_NODELAY TCP_NODELAY TCP_NODELAY TCP_NODELAY TCP_NODELAY "
		  "TCP_NODELAY TCP_NODELAY TCP_NODELAY TCP_NODELAY TCP_NODELAY TCP_NODELAY TCP_NODELAY "
		  "TCP_NODELAY TCP_NODELAY TCP_NODELAY", "more than 16" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(tb_opts_parse(bad[i].in, &o, err, sizeof(err)), -1);
		if (!strstr(err, bad[i].why))
			fail_msg("'%s': got \"%s\", want \"%s\"", bad[i].in, err, bad[i].why);
	}
}

static void test_apply(void **state)
{
	(void)state;
	struct tb_opts o;
	char err[300];
	const char *failed = NULL;
	int fd = socket(AF_INET, SOCK_STREAM, 0), v = -1;
	socklen_t len = sizeof(v);
	assert_true(fd >= 0);
	assert_int_equal(tb_opts_parse("TCP_NODELAY SO_KEEPALIVE", &o, err, sizeof(err)), 0);
	assert_int_equal(tb_opts_apply(fd, AF_INET, &o, &failed), 0);
	assert_int_equal(getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &v, &len), 0);
	assert_int_equal(v, 1);
	assert_int_equal(getsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &v, &len), 0);
	assert_int_equal(v, 1);
	close(fd);
	/* an option the socket refuses is named */
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	assert_int_equal(tb_opts_apply(fd, AF_INET, &o, &failed), -1);
	assert_string_equal(failed, "TCP_NODELAY");
	close(fd);
}

static void test_addr_and_words(void **state)
{
	(void)state;
	char out[64];
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(7003) };
	inet_pton(AF_INET, "10.1.2.3", &in.sin_addr);
	tb_addr_str((struct sockaddr *)&in, sizeof(in), out, sizeof(out));
	assert_string_equal(out, "10.1.2.3:7003");
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons(1) };
	inet_pton(AF_INET6, "::1", &in6.sin6_addr);
	tb_addr_str((struct sockaddr *)&in6, sizeof(in6), out, sizeof(out));
	assert_string_equal(out, "[::1]:1");
	struct sockaddr sa = { .sa_family = AF_UNIX };
	tb_addr_str(&sa, sizeof(sa), out, sizeof(out));
	assert_string_equal(out, "?");

	unsigned char w[4];
	tb_put32(w, 69996);
	assert_memory_equal(w, "\x00\x01\x11\x6c", 4);  /* big-endian */
	assert_int_equal(tb_get32(w), 69996);
	tb_put32(w, 0xfffffffeu);
	assert_int_equal(tb_get32(w), 0xfffffffeu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostport),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_addr_and_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
