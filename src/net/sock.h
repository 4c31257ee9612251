/*
 * Socket helpers for the client side: name resolution (IPv4 and IPv6),
 * non-blocking TCP sockets with httperf's options, explicit source ports
 * for --hog, and the file descriptor limit.  Library-style: nothing here
 * prints or exits; errors come back as errno values.
 */
#ifndef HTTPERF_NET_SOCK_H
#define HTTPERF_NET_SOCK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* Per-socket options taken from the command line. */
struct sock_opts {
	int	send_buffer;		/* SO_SNDBUF, 0: leave alone */
	int	recv_buffer;		/* SO_RCVBUF, 0: leave alone */
	int	close_with_reset;	/* SO_LINGER 0: close sends RST */
	int	busy_poll;		/* SO_BUSY_POLL us, 0: leave alone */
};

/* Source ports handed out by --hog: a cursor over 1024..65535. */
struct sock_hog {
	unsigned	next;
	unsigned	first, last;	/* the range; 0, 0: 1024..65535 */
};

/*
 * Resolves host:port (getaddrinfo, any family) into *ss.  Returns 0, or -1
 * with a message in errbuf.
 */
int	sock_resolve(const char *host, unsigned port,
	    struct sockaddr_storage *ss, socklen_t *sslen, char *errbuf,
	    size_t errlen);

/*
 * Creates a non-blocking, close-on-exec stream socket of `family' with
 * the given options, and TCP_NODELAY when it is TCP (not AF_UNIX).
 * Returns the fd, or -1 with errno.
 */
int	sock_open(int family, const struct sock_opts *o);

/*
 * Sets the socket's receive low-water mark (SO_RCVLOWAT): it is not
 * readable until `bytes' are there (or the peer closed, or the kernel's
 * buffer runs short).  Returns 0, or -1 with errno.
 */
int	sock_rcvlowat(int fd, int bytes);

/*
 * Whether the kernel lets sockets busy-poll for `usec' microseconds
 * (SO_BUSY_POLL: not built in, or above net.core.busy_read without
 * CAP_NET_ADMIN, it refuses): tried on a socket of its own.  Returns 0,
 * or -1 with errno.
 */
int	sock_busy_poll_check(int usec);

/*
 * Binds `fd' to the next free explicit source port (--hog) on address
 * `src' (NULL: the wildcard address of `family'), trying the ports from
 * the cursor on, wrapping around once, until one binds.  Returns 0, or -1
 * with errno (EADDRNOTAVAIL when every port of 1024..65535 is in use).
 */
int	sock_hog_bind(int fd, int family, const struct sockaddr_storage *src,
	    struct sock_hog *h);

/*
 * Binds `fd' to the next source address of `src' (`nsrc' of them, `*next'
 * counting the picks, so they take turns), and with --hog (`hog' not
 * NULL: a cursor per address, hog[0] alone when nsrc is 0) to an explicit
 * port of it; an address whose ports are all in use gives its turn to the
 * next one.  With no source and no --hog it does nothing.  Returns 0, or
 * -1 with errno: EADDRNOTAVAIL when every address is out of ports.
 */
int	sock_bind_next(int fd, int family, const struct sockaddr_storage *src,
	    size_t nsrc, size_t *next, struct sock_hog *hog);

/*
 * Binds `fd' to source address `src' with the port left to connect()
 * (IP_BIND_ADDRESS_NO_PORT where the system has it), so many addresses
 * together can exceed one address's port range.  Returns 0 or -1 (errno).
 */
int	sock_bind_src(int fd, const struct sockaddr_storage *src);

/*
 * Parses a numeric IPv4 or IPv6 address (no name lookup) into *ss.
 * Returns 0, or -1 if `s' is not an address literal.
 */
int	sock_parse_addr(const char *s, struct sockaddr_storage *ss);

/* What a --myaddr spec is, as sock_parse_src() reads it. */
enum sock_src_kind {
	SOCK_SRC_ADDR,		/* an IPv4 or IPv6 literal (IPv6 with an
				   optional %scope) */
	SOCK_SRC_RANGE,		/* an IPv4 range A.B.C.D-E.F.G.H, lo <= hi */
	SOCK_SRC_NAME,		/* something that can be a host name */
};

struct sock_src {
	enum sock_src_kind kind;
	uint32_t	 lo, hi;	/* SOCK_SRC_RANGE, host byte order */
};

/*
 * The one parser of --myaddr specs: checks the syntax of `spec' without
 * resolving anything (the options check each one with it; then
 * sock_expand_src() turns it into addresses).  Returns 0, or -1 with the
 * problem in errbuf ("range start is above its end").
 */
int	sock_parse_src(const char *spec, struct sock_src *src, char *errbuf,
	    size_t errlen);

/*
 * Appends to *arr (growing it, *n entries) the addresses of a --myaddr
 * spec: an IPv4 or IPv6 literal, an inclusive IPv4 range A.B.C.D-E.F.G.H
 * (at most 65536 addresses), or a host name (every address it resolves
 * to).  Returns 0, or -1 with a message in errbuf.
 */
int	sock_expand_src(const char *spec, struct sockaddr_storage **arr,
	    size_t *n, char *errbuf, size_t errlen);

/*
 * Checks that `path' can name a Unix-domain socket: not empty, and short
 * enough for sun_path with its NUL.  Returns 0, or -1 with the problem in
 * errbuf.
 */
int	sock_unix_check(const char *path, char *errbuf, size_t errlen);

/*
 * Fills *ss with the AF_UNIX address of `path' (sock_unix_check() first).
 * Returns 0, or -1 with the problem in errbuf.
 */
int	sock_unix_addr(const char *path, struct sockaddr_storage *ss,
	    socklen_t *sslen, char *errbuf, size_t errlen);

/*
 * Checks that `path' is there and is a socket, as a run needs it at
 * start.  Returns 0, or -1 with the problem ("no such file", "not a
 * socket") in errbuf.
 */
int	sock_unix_probe(const char *path, char *errbuf, size_t errlen);

/*
 * Starts a connect.  Returns 0 if connected at once, or the errno value:
 * EINPROGRESS when the connect goes on in the background.
 */
int	sock_connect(int fd, const struct sockaddr *sa, socklen_t salen);

/* Returns the pending error of a socket (SO_ERROR), 0 if none. */
int	sock_error(int fd);

/* Descriptors a run keeps besides its connections: stdio, the event
   loop, --wlog/--wsesslog/--hlog/--json files, TLS's random device. */
#define SOCK_NOFILE_RESERVE	64

/*
 * Descriptors a run needs: `units' that can be open at once (connections,
 * sessions), each with up to `conns_per_unit' connections (0 is 1), plus
 * SOCK_NOFILE_RESERVE.  Saturates at UINT64_MAX.
 */
uint64_t sock_nofile_want(uint64_t units, uint64_t conns_per_unit);

/*
 * Decides the RLIMIT_NOFILE to ask for, given the limits now in force
 * (UINT64_MAX: unlimited), fs.nr_open (0: unknown) and the descriptors
 * the run wants: the soft limit goes up to the hard one; when the run
 * wants more than the hard limit, both go up to `want', but not past
 * nr_open.  Raising the hard limit needs CAP_SYS_RESOURCE: a caller
 * without it falls back to soft = hard.
 */
void	sock_nofile_plan(uint64_t cur, uint64_t max, uint64_t nr_open,
	    uint64_t want, uint64_t *new_cur, uint64_t *new_max);

/*
 * The one stderr line about the limit, in buf: when it was raised for the
 * run (from old_cur to cur), or when cur stays below what the run wants
 * (connections beyond it count as fd-unavail).  Returns 1 with the line
 * written, 0 when there is nothing worth saying.
 */
int	sock_nofile_note(uint64_t old_cur, uint64_t cur, uint64_t want,
	    char *buf, size_t len);

/*
 * Raises RLIMIT_NOFILE for a run that wants `want' descriptors, as
 * sock_nofile_plan() decides, and leaves in `note' the line
 * sock_nofile_note() writes (empty when none).  Returns the soft limit
 * now in force, or -1 with errno.
 */
long	sock_raise_nofile(uint64_t want, char *note, size_t notelen);

#endif
