/*
 * TLS for the client, on OpenSSL 1.1.1 or 3.x: one context per run built
 * from the --ssl options, one non-blocking TLS connection per socket, and
 * resumption slots that keep the last session to resume from.  Library
 * style: nothing here prints or exits; errors come back as codes and
 * messages.
 */
#ifndef HTTPERF_NET_TLS_H
#define HTTPERF_NET_TLS_H

#include <stddef.h>
#include <sys/types.h>
#include <sys/uio.h>

/* Protocol versions for tls_config.min_version/max_version. */
enum tls_version {
	TLS_VERSION_ANY = 0,	/* the library's default bound */
	TLS_VERSION_1_0,
	TLS_VERSION_1_1,
	TLS_VERSION_1_2,
	TLS_VERSION_1_3,
};

/*
 * Returns the name of a version ("TLSv1.2", "auto" for TLS_VERSION_ANY),
 * or NULL for a value outside the enum.
 */
const char	*tls_version_name(int version);

/*
 * What the command line says about TLS, as the options checked it: the
 * versions are values of enum tls_version, and a key comes only with a
 * certificate.
 */
struct tls_config {
	enum tls_version min_version;
	enum tls_version max_version;
	const char	*ciphers;	/* TLS 1.2 and below list, or NULL */
	const char	*ciphersuites;	/* TLS 1.3 suites, or NULL */
	int		 verify;	/* verify the server's certificate */
	const char	*ca_file;	/* trust anchors, or NULL */
	const char	*ca_path;
	const char	*cert_file;	/* client certificate (PEM), or NULL */
	const char	*key_file;	/* its key (PEM); NULL: cert_file */
	const char	*sni;		/* server name to send, or NULL */
	const char	*verify_name;	/* name the certificate must match,
					   or NULL (IP literals: the address) */
	/* ALPN protocols to offer, in wire format (length-prefixed), or
	   NULL: no ALPN extension. */
	const unsigned char *alpn;
	size_t		 alpn_len;
};

struct tls_ctx;
struct tls_conn;

/*
 * A resumption slot: the most recent session a connection using the slot
 * was given by the server (TLS 1.2 id or ticket, TLS 1.3 ticket), as a
 * copy no connection uses.  A new connection using the slot offers it (a
 * copy of it), again and again until the server issues a newer one: a
 * server that renews no ticket on a resumed connection is still resumed
 * with.  Zero-initialise; free with tls_slot_clear().
 */
struct tls_slot {
	void		*session;	/* SSL_SESSION *, owned */
};

/* Results of the I/O calls. */
enum tls_io {
	TLS_IO_OK,		/* done (handshake) or bytes moved */
	TLS_IO_WANT_READ,	/* retry when the socket is readable */
	TLS_IO_WANT_WRITE,	/* retry when the socket is writable */
	TLS_IO_EOF,		/* the peer closed (close_notify or TCP EOF) */
	TLS_IO_ERROR,		/* failed; see tls_conn_error() */
};

/*
 * Builds the context: protocol bounds, cipher lists, verification and
 * trust anchors, client certificate and key (checked to match).  Returns
 * NULL with a one-line message in errbuf (naming the option at fault).
 */
struct tls_ctx	*tls_ctx_new(const struct tls_config *cfg, char *errbuf,
		    size_t errlen);

/* Frees the context.  NULL is ok. */
void		 tls_ctx_free(struct tls_ctx *ctx);

/*
 * Starts TLS on connected socket `fd' (not yet handshaken).  With a
 * non-NULL slot the connection offers the slot's session, and any session
 * the server issues on it is stored back into the slot.  Returns NULL
 * (with errno set) only when the library cannot allocate.
 */
struct tls_conn	*tls_conn_new(struct tls_ctx *ctx, int fd,
		    struct tls_slot *slot);

/*
 * Frees a connection: sends close_notify once if the handshake completed
 * (without waiting for the peer's), then releases everything.  NULL ok.
 */
void		 tls_conn_free(struct tls_conn *tc);

/* Drives the handshake until it returns TLS_IO_OK (complete). */
enum tls_io	 tls_handshake(struct tls_conn *tc);

/*
 * Reads decrypted bytes into buf.  Returns the count (> 0) with
 * *io = TLS_IO_OK, or 0 with *io saying why nothing was read.
 */
size_t		 tls_read(struct tls_conn *tc, void *buf, size_t len,
		    enum tls_io *io);

/*
 * Writes the bytes of iov[0..iovcnt), a record at a time (partial writes
 * allowed).  Returns the count with *io = TLS_IO_OK (0 for nothing to
 * write), or 0 with *io saying why nothing was written.  After a WANT_*
 * the next call must offer at least the same first bytes again.  After
 * the socket refused a write (TLS_IO_ERROR, the server reset or closed
 * the connection) every write fails, but tls_read() still returns what
 * the server sent before, then its EOF or error; no close_notify goes
 * out then.
 */
size_t		 tls_writev(struct tls_conn *tc, const struct iovec *iov,
		    int iovcnt, enum tls_io *io);

/* Returns the decrypted bytes buffered inside the library. */
size_t		 tls_pending(const struct tls_conn *tc);

/* Returns non-zero if the handshake resumed an earlier session. */
int		 tls_resumed(const struct tls_conn *tc);

/* Returns the negotiated protocol ("TLSv1.3") and cipher names. */
const char	*tls_conn_version(const struct tls_conn *tc);
const char	*tls_conn_cipher(const struct tls_conn *tc);

/*
 * Returns the protocol the server selected by ALPN (not NUL-terminated,
 * its length in *len), or NULL (*len 0) if it selected none.
 */
const unsigned char *tls_conn_alpn(const struct tls_conn *tc,
		    size_t *len);

/*
 * After TLS_IO_ERROR: an errno-style cause (ECONNRESET for a reset, the
 * socket's errno for a system error, ENOPROTOOPT when the server refused
 * every ALPN protocol offered, EPROTO for another TLS protocol failure,
 * certificate verification included) and a short description.
 */
int		 tls_conn_error(const struct tls_conn *tc);
const char	*tls_conn_strerror(const struct tls_conn *tc);

/* Frees the slot's session (not NULL).  The slot may be reused. */
void		 tls_slot_clear(struct tls_slot *slot);

#endif
