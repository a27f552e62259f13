/* kbench - the run's deadline for connections a library holds: a watch
 * thread that shuts the library's sockets down at the run's end + a grace
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * See sockwatch.h.  The thread wakes every SW_TICK_NS, reads the shared
 * end (a stop moves it earlier) and, past it and the grace, calls
 * shutdown(SHUT_RDWR) on every watched descriptor that is still a socket.
 * A library that closed one of its sockets and got the number again for
 * another of its own is shut down too, which is what the deadline wants;
 * a number reused for something else than a socket is left alone.
 */
#include "config.h"
#include "load/backend/sockwatch.h"
#include "sys/clock.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SW_TICK_NS 100000000L   /* how often the thread reads the clock */

struct sw_sock {
	int fd;
	const void *owner;
};

static struct {
	pthread_mutex_t mu;
	pthread_t th;
	int running;                     /* the thread was started */
	int stop;                        /* under mu: the thread ends */
	int fired;                       /* atomic: sockets were shut down */
	const volatile uint64_t *end_ns;
	uint64_t grace_ns;
	struct sw_sock *socks;           /* under mu */
	size_t n, cap;
} sw = { .mu = PTHREAD_MUTEX_INITIALIZER };

static int is_socket(int fd)
{
	struct stat st;
	return fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int sw_snapshot(struct sw_snap *s)
{
	s->fds = NULL;
	s->n = 0;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return errno;
	int self = dirfd(d), e = 0;
	size_t cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		long fd = strtol(de->d_name, &end, 10);
		if (*end || end == de->d_name || fd == self || fd < 0 || !is_socket((int)fd))
			continue;
		if (s->n == cap) {
			cap = cap ? 2 * cap : 16;
			int *nf = realloc(s->fds, cap * sizeof(*nf));
			if (!nf) {
				e = ENOMEM;
				break;
			}
			s->fds = nf;
		}
		s->fds[s->n++] = (int)fd;
	}
	closedir(d);
	if (e) {
		free(s->fds);
		s->fds = NULL;
		s->n = 0;
		return e;
	}
	if (s->n)
		qsort(s->fds, s->n, sizeof(*s->fds), cmp_int);
	return 0;
}

static void *watch(void *arg)
{
	(void)arg;
	for (;;) {
		struct timespec ts = { 0, SW_TICK_NS };
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&sw.mu);
		if (sw.stop) {
			pthread_mutex_unlock(&sw.mu);
			return NULL;
		}
		uint64_t end = *sw.end_ns;
		if (end && end != UINT64_MAX && kb_now_ns() >= end + sw.grace_ns) {
			/* said first: a request that fails on the shutdown sees it */
			__atomic_store_n(&sw.fired, 1, __ATOMIC_RELEASE);
			for (size_t i = 0; i < sw.n; i++)
				if (is_socket(sw.socks[i].fd))
					shutdown(sw.socks[i].fd, SHUT_RDWR);
		}
		pthread_mutex_unlock(&sw.mu);
	}
}

/* add fd as owner's; under sw.mu.  Returns 0 or ENOMEM. */
static int add(int fd, const void *owner)
{
	if (sw.n == sw.cap) {
		size_t cap = sw.cap ? 2 * sw.cap : 16;
		struct sw_sock *ns = realloc(sw.socks, cap * sizeof(*ns));
		if (!ns)
			return ENOMEM;
		sw.socks = ns;
		sw.cap = cap;
	}
	sw.socks[sw.n].fd = fd;
	sw.socks[sw.n].owner = owner;
	sw.n++;
	return 0;
}

int sw_watch_new(struct sw_snap *before, const void *owner, const volatile uint64_t *end_ns,
		 uint64_t grace_ns)
{
	struct sw_snap now;
	int e = sw_snapshot(&now);
	pthread_mutex_lock(&sw.mu);
	sw.end_ns = end_ns;
	sw.grace_ns = grace_ns;
	for (size_t i = 0; !e && i < now.n; i++)
		if (!before->n || !bsearch(&now.fds[i], before->fds, before->n, sizeof(int), cmp_int))
			e = add(now.fds[i], owner);
	if (!e && !sw.running) {
		sw.stop = 0;
		e = pthread_create(&sw.th, NULL, watch, NULL);
		sw.running = !e;
	}
	pthread_mutex_unlock(&sw.mu);
	free(now.fds);
	free(before->fds);
	before->fds = NULL;
	before->n = 0;
	if (e)
		sw_forget(owner);
	return e;
}

void sw_forget(const void *owner)
{
	pthread_mutex_lock(&sw.mu);
	size_t k = 0;
	for (size_t i = 0; i < sw.n; i++)
		if (sw.socks[i].owner != owner)
			sw.socks[k++] = sw.socks[i];
	sw.n = k;
	int join = sw.running && !sw.n;
	if (join)
		sw.stop = 1;
	pthread_mutex_unlock(&sw.mu);
	if (join) {
		pthread_join(sw.th, NULL);
		pthread_mutex_lock(&sw.mu);
		sw.running = 0;
		free(sw.socks);
		sw.socks = NULL;
		sw.cap = 0;
		pthread_mutex_unlock(&sw.mu);
	}
}

int sw_fired(void)
{
	return __atomic_load_n(&sw.fired, __ATOMIC_ACQUIRE);
}
