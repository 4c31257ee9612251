/*
 * Small helpers shared by every module: array size, container_of,
 * allocation wrappers that never return NULL, file reading, escaping,
 * and the HTTP token alphabet and blank trimming that the option, reply,
 * cookie and session-file parsers all need.
 */
#ifndef HTTPERF_LIB_UTIL_H
#define HTTPERF_LIB_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifndef nitems
#define nitems(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* Recovers a pointer to the struct that embeds `ptr' as `member'. */
#define containerof(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/*
 * Allocation that cannot fail: on exhaustion a message goes to stderr and
 * the process exits with status 1 (nothing sensible can be measured then).
 */
void	*xmalloc(size_t size);
void	*xcalloc(size_t n, size_t size);
void	*xrealloc(void *p, size_t size);
void	*xreallocarray(void *p, size_t n, size_t size);
char	*xstrdup(const char *s);
/* A copy of [s, s + len) as a new string. */
char	*xstrndup(const char *s, size_t len);

/*
 * The largest file util_read_file() reads: far above any header, session
 * or URI list, or request body a test uses, yet low enough that a wrong
 * file name cannot eat the machine's memory.
 */
#define UTIL_FILE_MAX		((size_t)1 << 30)
#define UTIL_FILE_MAX_TEXT	"1 GiB"

/* util_read_file() errors besides errno values. */
#define UTIL_ENOTREG	(-1)	/* not a regular file (FIFO, device...) */
#define UTIL_ETOOBIG	(-2)	/* larger than the limit */

/*
 * Reads all of regular file `path' (at most UTIL_FILE_MAX bytes, or `max'
 * bytes for util_read_file_max()) into a new buffer (*out, freed by the
 * caller) of *outlen bytes followed by a NUL.  /dev/null reads as an
 * empty file.  A directory gives EISDIR, any other file that is not
 * regular (a FIFO, /dev/zero) UTIL_ENOTREG, without blocking; a larger
 * file UTIL_ETOOBIG.  Returns 0 or one of
 * those codes or an errno value; util_read_strerror() says it in words.
 */
int	util_read_file(const char *path, char **out, size_t *outlen);
int	util_read_file_max(const char *path, size_t max, char **out,
	    size_t *outlen);
const char *util_read_strerror(int e);

/*
 * Makes `len' bytes of untrusted text (a line of a file, a server's bytes)
 * fit to be quoted on one line of a message: \n, \r and \t as such,
 * every other byte below 0x20 or from 0x7f up as \xNN, the rest as it is.
 * util_escape() writes into `buf' of `size' bytes; when the whole does
 * not fit, it is cut at a whole escape and ends in "...".  It always ends
 * buf with a NUL (size > 0) and returns it.  util_put_escaped() writes
 * all of it to `f'.
 */
char	*util_escape(char *buf, size_t size, const char *s, size_t len);
void	 util_put_escaped(FILE *f, const char *s, size_t len);

/*
 * Writes the escaped form of one byte, as above, into `tmp' (at least 5
 * bytes, NUL included) and returns its length; with `backslash' set a
 * backslash is written as two, so quoted escapes stay unambiguous.
 */
size_t	 util_escape_char(char *tmp, unsigned char ch, int backslash);

/*
 * RFC 9110 section 5.6.2 token characters (methods, header field names),
 * one entry per byte.  util_is_tchar() is inline: the reply parser calls
 * it for every byte of every header name.
 */
extern const unsigned char util_tchar[256];

static inline int
util_is_tchar(unsigned char ch)
{
	return util_tchar[ch];
}

/*
 * A target URL, as the command line takes one: scheme http or https (any
 * case), host, port, and the request target.
 */
struct util_url {
	int		 https;		/* the scheme is https */
	char		*host;		/* name or address, no brackets */
	unsigned	 port;		/* as given, else 80 or 443 */
	char		*target;	/* path and query, "/" at least;
					   the fragment left out */
};

/*
 * Returns non-zero when `s' starts like a URL, with a scheme and "://"
 * ("ftp://x" too: the parser then says which schemes it takes).
 */
int	util_url_like(const char *s);

/*
 * Parses `SCHEME://HOST[:PORT][/PATH][?QUERY][#FRAGMENT]': HOST a name
 * (letters, digits, '-', '.', '_'), an IPv4 address or an IPv6 address
 * in brackets; PORT 1 to 65535, the scheme's when left out or empty; the
 * target (a query alone gets the path "/") without spaces or control
 * characters.  User information (user@host) is refused: it would be
 * sent nowhere.  Returns 0 with *u filled (free it with util_url_free()),
 * or -1 with the problem in errbuf.
 */
int	util_url_parse(const char *s, struct util_url *u, char *errbuf,
	    size_t errlen);

/* Frees what util_url_parse() allocated.  Harmless twice. */
void	util_url_free(struct util_url *u);

/*
 * The pieces of util_url_parse(), for a syntax of its own (a proxy's):
 * util_url_ctl() is non-zero when [s, e) holds a control character, or a
 * space when `space' is non-zero; util_url_port() reads the port [s, e),
 * digits only, 1 to 65535 (0 with *port set, or -1: empty or bad);
 * util_url_name() returns why the host name [h, e) is refused, or NULL;
 * util_url_bracket(), given [h, e) after an IPv6 address's '[', points
 * *he at its ']' and returns NULL, or returns what is wrong (no ']', or
 * nothing between the brackets), not checking the address.
 */
int	util_url_ctl(const char *s, const char *e, int space);
int	util_url_port(const char *s, const char *e, unsigned *port);
const char *util_url_name(const char *h, const char *e);
const char *util_url_bracket(const char *h, const char *e,
	    const char **he);

/*
 * Converts `d' to an integer, toward zero, within the type's range: NaN
 * and values below 0 give 0, values at or above 2^64 give UINT64_MAX.
 * A plain cast of a value out of range is undefined behaviour.
 */
uint64_t util_dtou64(double d);

/* Narrows [*s, *e) by the blanks (space and tab, HTTP's OWS) at its ends. */
void	 util_trim(const char **s, const char **e);

#endif
