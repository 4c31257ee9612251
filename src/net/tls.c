/*
 * TLS for the client on OpenSSL 1.1.1 or 3.x (see tls.h): the context
 * built from the --ssl options, non-blocking connections whose results
 * are mapped onto enum tls_io, and resumption slots fed by the client
 * session cache callback.
 *
 * A slot holds a copy of its session that no connection uses: each
 * connection offers a copy of the copy.  The library marks the session a
 * connection used as not resumable when a TLS 1.3 handshake resumes it
 * (tickets are meant for one use) and when the connection is freed
 * without a close_notify sent; servers that issue no new ticket on a
 * resumed connection (lighttpd, h2o, Node) would otherwise see every
 * other connection make a full handshake, and a server that closes
 * without close_notify would see no resumption at all.  A ticket is
 * offered again only until the server issues a newer one.
 *
 * The library's error queue belongs to the thread and is shared by every
 * connection, so each call here clears it before an SSL_* call and drains
 * it afterwards: nothing one connection leaves behind is blamed on the
 * next.  No random seeding is done; the library seeds itself from the
 * system.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "lib/util.h"
#include "net/tls.h"

#if OPENSSL_VERSION_NUMBER < 0x10101000L
#error "OpenSSL 1.1.1 or later is required"
#endif

#define TLS_WBUF_SIZE	(16 * 1024)	/* plaintext per write: a record */

struct tls_ctx {
	SSL_CTX		*ssl_ctx;
	int		 verify;
	char		*sni;		/* copies of the config's strings */
	char		*verify_name;
	/* Bytes of a gathered write, shared by every connection: the
	   library copies them into its record before it returns, and
	   SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER lets a retry offer them
	   again from here after other connections used the buffer. */
	char		*wbuf;
};

struct tls_conn {
	SSL		*ssl;
	struct tls_ctx	*ctx;
	struct tls_slot	*slot;		/* NULL: sessions are not kept */
	int		 dead;		/* fatal error or EOF without
					   close_notify: no more I/O */
	int		 wfail;		/* a write failed in the socket: no
					   more writes, reads go on */
	int		 err;		/* errno-style cause of TLS_IO_ERROR */
	char		 msg[192];
};

/*
 * What every call returns once the connection failed or saw an unclean
 * EOF: the library's state is not to be used any more.
 */
#define TLS_CONN_DEAD(tc)	((tc)->err != 0 ? TLS_IO_ERROR : TLS_IO_EOF)

/* OpenSSL's protocol numbers and our names, indexed by enum tls_version. */
static const struct {
	int		 proto;
	const char	*name;
} tls_versions[] = {
	[TLS_VERSION_ANY] = { 0, "auto" },
	[TLS_VERSION_1_0] = { TLS1_VERSION, "TLSv1.0" },
	[TLS_VERSION_1_1] = { TLS1_1_VERSION, "TLSv1.1" },
	[TLS_VERSION_1_2] = { TLS1_2_VERSION, "TLSv1.2" },
	[TLS_VERSION_1_3] = { TLS1_3_VERSION, "TLSv1.3" },
};
_Static_assert(nitems(tls_versions) == TLS_VERSION_1_3 + 1,
    "tls_versions must cover enum tls_version");

const char *
tls_version_name(int version)
{
	if (version < 0 || (size_t)version >= nitems(tls_versions))
		return NULL;
	return tls_versions[version].name;
}

/*
 * Copies the reason of the oldest queued error into buf ("unknown error"
 * if there is none) and empties the queue.
 */
static void
tls_err_reason(char *buf, size_t len)
{
	unsigned long code;
	const char *reason;

	code = ERR_peek_error();
	reason = code != 0 ? ERR_reason_error_string(code) : NULL;
	if (reason != NULL)
		snprintf(buf, len, "%s", reason);
	else if (code != 0)
		ERR_error_string_n(code, buf, len);
	else
		snprintf(buf, len, "unknown error");
	ERR_clear_error();
}

/* Formats "<option>: <what> '<arg>': <library reason>" into errbuf. */
static void
tls_ctx_fail(char *errbuf, size_t errlen, const char *opt, const char *what,
    const char *arg)
{
	char reason[128];

	tls_err_reason(reason, sizeof(reason));
	snprintf(errbuf, errlen, "%s: %s '%s': %s", opt, what, arg, reason);
}

/*
 * The client session cache callback: stores a copy of a session the
 * server has just issued into the connection's slot, replacing the one
 * there (the newest ticket wins).  The session itself stays the
 * connection's, which the library may mark as not resumable later (see
 * the top of the file).  Returning 0 leaves the library its reference.
 */
static int
tls_new_session(SSL *ssl, SSL_SESSION *sess)
{
	struct tls_conn *tc;
	SSL_SESSION *copy;

	tc = SSL_get_app_data(ssl);
	if (tc == NULL || tc->slot == NULL)
		return 0;
	/* Out of memory: the older session stays. */
	if ((copy = SSL_SESSION_dup(sess)) == NULL)
		return 0;
	if (tc->slot->session != NULL)
		SSL_SESSION_free(tc->slot->session);
	tc->slot->session = copy;
	return 0;
}

/*
 * Applies the protocol bounds.  A version the library refuses (compiled
 * out, or excluded by configuration) is an error naming --ssl-protocol.
 *
 * OpenSSL 3 refuses TLS 1.0 and 1.1 at its default security level 1 (their
 * signatures use SHA-1/MD5), so a bound that explicitly asks for one of
 * them lowers the security level to 0: whoever names an old protocol on
 * the command line wants to measure a server that speaks it.  That also
 * admits weak keys and ciphers for this run, and only for this run.
 */
static int
tls_ctx_versions(SSL_CTX *sc, const struct tls_config *cfg, char *errbuf,
    size_t errlen)
{
	enum tls_version v[2] = { cfg->min_version, cfg->max_version };
	size_t i;
	int ok;

	if (v[0] != TLS_VERSION_ANY && v[1] != TLS_VERSION_ANY &&
	    v[0] > v[1]) {
		snprintf(errbuf, errlen,
		    "--ssl-protocol: minimum %s is above maximum %s",
		    tls_versions[v[0]].name, tls_versions[v[1]].name);
		return -1;
	}
	for (i = 0; i < nitems(v); i++) {
		if (v[i] == TLS_VERSION_ANY)
			continue;
		ERR_clear_error();
		if (i == 0)
			ok = SSL_CTX_set_min_proto_version(sc,
			    tls_versions[v[i]].proto);
		else
			ok = SSL_CTX_set_max_proto_version(sc,
			    tls_versions[v[i]].proto);
		ERR_clear_error();
		if (!ok) {
			snprintf(errbuf, errlen,
			    "--ssl-protocol: %s is not available in this "
			    "OpenSSL", tls_versions[v[i]].name);
			return -1;
		}
	}
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
	for (i = 0; i < nitems(v); i++)
		if (v[i] == TLS_VERSION_1_0 || v[i] == TLS_VERSION_1_1)
			SSL_CTX_set_security_level(sc, 0);
#endif
	return 0;
}

/*
 * Applies the cipher lists, the trust anchors and the client certificate.
 * The system's anchors are loaded only with verification on; --ssl-ca-file
 * and --ssl-ca-path are loaded whenever given, so that a wrong path is
 * reported even before --ssl-verify is added.
 */
static int
tls_ctx_keys(SSL_CTX *sc, const struct tls_config *cfg, char *errbuf,
    size_t errlen)
{
	const char *key;
	unsigned long code;

	ERR_clear_error();
	if (cfg->ciphers != NULL &&
	    !SSL_CTX_set_cipher_list(sc, cfg->ciphers)) {
		ERR_clear_error();
		snprintf(errbuf, errlen, "--ssl-ciphers: no cipher matches "
		    "'%s'", cfg->ciphers);
		return -1;
	}
	if (cfg->ciphersuites != NULL &&
	    !SSL_CTX_set_ciphersuites(sc, cfg->ciphersuites)) {
		ERR_clear_error();
		snprintf(errbuf, errlen, "--ssl-ciphersuites: no cipher suite "
		    "matches '%s'", cfg->ciphersuites);
		return -1;
	}
	if (cfg->verify && !SSL_CTX_set_default_verify_paths(sc)) {
		tls_err_reason(errbuf, errlen);
		return -1;
	}
	if (cfg->ca_file != NULL &&
	    !SSL_CTX_load_verify_locations(sc, cfg->ca_file, NULL)) {
		tls_ctx_fail(errbuf, errlen, "--ssl-ca-file", "cannot load",
		    cfg->ca_file);
		return -1;
	}
	if (cfg->ca_path != NULL &&
	    !SSL_CTX_load_verify_locations(sc, NULL, cfg->ca_path)) {
		tls_ctx_fail(errbuf, errlen, "--ssl-ca-path", "cannot use",
		    cfg->ca_path);
		return -1;
	}
	/* --ssl-key without --ssl-certificate is refused by the options. */
	if (cfg->cert_file == NULL)
		return 0;
	if (!SSL_CTX_use_certificate_chain_file(sc, cfg->cert_file)) {
		tls_ctx_fail(errbuf, errlen, "--ssl-certificate",
		    "cannot load", cfg->cert_file);
		return -1;
	}
	key = cfg->key_file != NULL ? cfg->key_file : cfg->cert_file;
	if (!SSL_CTX_use_PrivateKey_file(sc, key, SSL_FILETYPE_PEM)) {
		/*
		 * A key of the certificate's type is compared with it
		 * right here; another type gets past, to the check below.
		 */
		code = ERR_peek_error();
		if (ERR_GET_LIB(code) == ERR_LIB_X509 &&
		    (ERR_GET_REASON(code) == X509_R_KEY_VALUES_MISMATCH ||
		    ERR_GET_REASON(code) == X509_R_KEY_TYPE_MISMATCH))
			goto mismatch;
		tls_ctx_fail(errbuf, errlen, "--ssl-key", "cannot load", key);
		return -1;
	}
	if (!SSL_CTX_check_private_key(sc))
		goto mismatch;
	return 0;

mismatch:
	ERR_clear_error();
	snprintf(errbuf, errlen, "--ssl-key: the key does not match the "
	    "certificate");
	return -1;
}

/* Builds the context (see tls.h). */
struct tls_ctx *
tls_ctx_new(const struct tls_config *cfg, char *errbuf, size_t errlen)
{
	struct tls_ctx *ctx;
	SSL_CTX *sc;

	ERR_clear_error();
	if ((ctx = calloc(1, sizeof(*ctx))) == NULL ||
	    (ctx->ssl_ctx = sc = SSL_CTX_new(TLS_client_method())) == NULL) {
		snprintf(errbuf, errlen, "--ssl: cannot create the TLS "
		    "context: out of memory");
		goto fail;
	}
	if ((ctx->wbuf = malloc(TLS_WBUF_SIZE)) == NULL ||
	    (cfg->sni != NULL && (ctx->sni = strdup(cfg->sni)) == NULL) ||
	    (cfg->verify_name != NULL &&
	    (ctx->verify_name = strdup(cfg->verify_name)) == NULL)) {
		snprintf(errbuf, errlen, "--ssl: out of memory");
		goto fail;
	}
	ctx->verify = cfg->verify != 0;

	if (tls_ctx_versions(sc, cfg, errbuf, errlen) == -1 ||
	    tls_ctx_keys(sc, cfg, errbuf, errlen) == -1)
		goto fail;

	SSL_CTX_set_verify(sc, ctx->verify ? SSL_VERIFY_PEER : SSL_VERIFY_NONE,
	    NULL);
	SSL_CTX_set_options(sc, SSL_OP_NO_COMPRESSION);
	/* Note: SSL_CTX_set_alpn_protos() returns 0 on success. */
	if (cfg->alpn != NULL && cfg->alpn_len > 0 &&
	    SSL_CTX_set_alpn_protos(sc, cfg->alpn,
	    (unsigned)cfg->alpn_len) != 0) {
		snprintf(errbuf, errlen, "--ssl: cannot set the ALPN list");
		goto fail;
	}
	SSL_CTX_set_mode(sc, SSL_MODE_ENABLE_PARTIAL_WRITE |
	    SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	/* Sessions go to the slots through the callback, not a cache. */
	SSL_CTX_set_session_cache_mode(sc, SSL_SESS_CACHE_CLIENT |
	    SSL_SESS_CACHE_NO_INTERNAL_STORE);
	SSL_CTX_sess_set_new_cb(sc, tls_new_session);
	ERR_clear_error();
	return ctx;

fail:
	ERR_clear_error();
	tls_ctx_free(ctx);
	return NULL;
}

void
tls_ctx_free(struct tls_ctx *ctx)
{
	if (ctx == NULL)
		return;
	SSL_CTX_free(ctx->ssl_ctx);
	free(ctx->sni);
	free(ctx->verify_name);
	free(ctx->wbuf);
	free(ctx);
}

/* Returns non-zero if s is an IPv4 or IPv6 address literal. */
static int
tls_is_ip(const char *s)
{
	struct in6_addr a6;
	struct in_addr a4;

	return inet_pton(AF_INET, s, &a4) == 1 ||
	    inet_pton(AF_INET6, s, &a6) == 1;
}

/*
 * Sets up the per-connection parts: socket, SNI, the name to verify and
 * the session to offer (a copy of the slot's).  Returns -1 only when the
 * library fails.
 */
static int
tls_conn_setup(struct tls_conn *tc, int fd)
{
	struct tls_ctx *ctx = tc->ctx;
	SSL *ssl = tc->ssl;
	X509_VERIFY_PARAM *param;
	SSL_SESSION *offer;
	int ok;

	if (!SSL_set_app_data(ssl, tc) || !SSL_set_fd(ssl, fd))
		return -1;
	SSL_set_connect_state(ssl);
	if (ctx->sni != NULL && !SSL_set_tlsext_host_name(ssl, ctx->sni))
		return -1;
	if (ctx->verify && ctx->verify_name != NULL) {
		if (tls_is_ip(ctx->verify_name)) {
			param = SSL_get0_param(ssl);
			if (!X509_VERIFY_PARAM_set1_ip_asc(param,
			    ctx->verify_name))
				return -1;
		} else if (!SSL_set1_host(ssl, ctx->verify_name))
			return -1;
	}
	if (tc->slot == NULL || tc->slot->session == NULL)
		return 0;
	if ((offer = SSL_SESSION_dup(tc->slot->session)) == NULL)
		return -1;
	ok = SSL_set_session(ssl, offer);
	SSL_SESSION_free(offer);	/* the SSL holds its own reference */
	return ok ? 0 : -1;
}

/* Starts TLS on a connected socket (see tls.h). */
struct tls_conn *
tls_conn_new(struct tls_ctx *ctx, int fd, struct tls_slot *slot)
{
	struct tls_conn *tc;

	if ((tc = calloc(1, sizeof(*tc))) == NULL)
		return NULL;
	tc->ctx = ctx;
	tc->slot = slot;
	ERR_clear_error();
	if ((tc->ssl = SSL_new(ctx->ssl_ctx)) == NULL ||
	    tls_conn_setup(tc, fd) == -1) {
		ERR_clear_error();
		SSL_free(tc->ssl);
		free(tc);
		errno = ENOMEM;
		return NULL;
	}
	return tc;
}

/*
 * Frees a connection.  close_notify goes out only after a completed
 * handshake, no fatal error and no failed write; its result is ignored
 * (the socket is non-blocking and the program ignores SIGPIPE).
 */
void
tls_conn_free(struct tls_conn *tc)
{
	if (tc == NULL)
		return;
	if (!tc->dead && !tc->wfail && SSL_is_init_finished(tc->ssl)) {
		ERR_clear_error();
		(void)SSL_shutdown(tc->ssl);
		ERR_clear_error();
	}
	/* The slot must not see sessions from here on. */
	SSL_set_app_data(tc->ssl, NULL);
	SSL_free(tc->ssl);
	free(tc);
}

/* Records an error cause and message; the connection is done for. */
static enum tls_io
tls_conn_fail(struct tls_conn *tc, int err, const char *msg)
{
	tc->dead = 1;
	tc->err = err;
	snprintf(tc->msg, sizeof(tc->msg), "%s", msg);
	ERR_clear_error();
	return TLS_IO_ERROR;
}

/*
 * Describes a TLS protocol failure from the oldest queued error, adding
 * the verification result when the certificate was refused.
 */
static enum tls_io
tls_conn_proto(struct tls_conn *tc)
{
	char reason[128], msg[sizeof(tc->msg)];
	unsigned long code = ERR_peek_error();
	long vr;

	tls_err_reason(reason, sizeof(reason));
#ifdef SSL_R_TLSV1_ALERT_NO_APPLICATION_PROTOCOL
	/* The server refused every protocol we offered by ALPN. */
	if (ERR_GET_LIB(code) == ERR_LIB_SSL && ERR_GET_REASON(code) ==
	    SSL_R_TLSV1_ALERT_NO_APPLICATION_PROTOCOL)
		return tls_conn_fail(tc, ENOPROTOOPT, reason);
#endif
	vr = SSL_get_verify_result(tc->ssl);
	if (tc->ctx->verify && vr != X509_V_OK)
		snprintf(msg, sizeof(msg), "%s: %s", reason,
		    X509_verify_cert_error_string(vr));
	else
		snprintf(msg, sizeof(msg), "%s", reason);
	return tls_conn_fail(tc, EPROTO, msg);
}

/* Returns non-zero if the oldest queued error is OpenSSL 3's TCP EOF. */
static int
tls_unexpected_eof(void)
{
#ifdef SSL_R_UNEXPECTED_EOF_WHILE_READING
	unsigned long code;

	code = ERR_peek_error();
	return ERR_GET_LIB(code) == ERR_LIB_SSL &&
	    ERR_GET_REASON(code) == SSL_R_UNEXPECTED_EOF_WHILE_READING;
#else
	return 0;
#endif
}

/*
 * Maps the failed result `ret' of an SSL_* I/O call, made with errno
 * cleared and `saved' being errno right after it, onto enum tls_io.
 *
 * A TCP EOF without close_notify counts as EOF: servers commonly close
 * that way, and HTTP framing says whether the reply was complete.
 * OpenSSL 1.1.1 reports it as SSL_ERROR_SYSCALL with errno 0 and an empty
 * queue, OpenSSL 3 as SSL_R_UNEXPECTED_EOF_WHILE_READING.  This holds
 * during the handshake too (the peer went away cleanly); bytes that are
 * not TLS are a protocol error (EPROTO) instead.
 */
static enum tls_io
tls_conn_result(struct tls_conn *tc, int ret, int saved)
{
	switch (SSL_get_error(tc->ssl, ret)) {
	case SSL_ERROR_WANT_READ:
		ERR_clear_error();
		return TLS_IO_WANT_READ;
	case SSL_ERROR_WANT_WRITE:
		ERR_clear_error();
		return TLS_IO_WANT_WRITE;
	case SSL_ERROR_ZERO_RETURN:
		ERR_clear_error();
		return TLS_IO_EOF;
	case SSL_ERROR_SYSCALL:
		if (saved != 0)
			return tls_conn_fail(tc, saved, strerror(saved));
		if (ERR_peek_error() == 0) {
			tc->dead = 1;
			return TLS_IO_EOF;
		}
		return tls_conn_proto(tc);
	case SSL_ERROR_SSL:
		if (tls_unexpected_eof()) {
			ERR_clear_error();
			tc->dead = 1;
			return TLS_IO_EOF;
		}
		return tls_conn_proto(tc);
	default:
		return tls_conn_fail(tc, EPROTO, "unexpected TLS state");
	}
}

enum tls_io
tls_handshake(struct tls_conn *tc)
{
	int ret, saved;

	if (tc->dead)
		return TLS_CONN_DEAD(tc);
	ERR_clear_error();
	errno = 0;
	ret = SSL_do_handshake(tc->ssl);
	saved = errno;
	if (ret == 1)
		return TLS_IO_OK;
	return tls_conn_result(tc, ret, saved);
}

/*
 * Reads (wbuf NULL) or writes (rbuf NULL) once; see tls_read/tls_writev.
 *
 * A write the socket refuses (the server reset or closed the connection,
 * EPIPE or ECONNRESET) ends the writes only: the server may have replied
 * before it closed (an early reply to a large body), and its reply is
 * still there to read.
 */
static size_t
tls_transfer(struct tls_conn *tc, void *rbuf, const void *wbuf, size_t len,
    enum tls_io *io)
{
	size_t n = 0;
	int ret, saved, sockerr;

	*io = TLS_IO_OK;
	if (tc->dead || (rbuf == NULL && tc->wfail)) {
		*io = TLS_CONN_DEAD(tc);
		return 0;
	}
	ERR_clear_error();
	errno = 0;
	if (rbuf != NULL)
		ret = SSL_read_ex(tc->ssl, rbuf, len, &n);
	else
		ret = SSL_write_ex(tc->ssl, wbuf, len, &n);
	saved = errno;
	if (ret == 1 && n > 0)
		return n;
	sockerr = rbuf == NULL && saved != 0 &&
	    SSL_get_error(tc->ssl, ret) == SSL_ERROR_SYSCALL;
	*io = tls_conn_result(tc, ret, saved);
	if (sockerr) {
		tc->wfail = 1;
		tc->dead = 0;
	}
	return 0;
}

size_t
tls_read(struct tls_conn *tc, void *buf, size_t len, enum tls_io *io)
{
	return tls_transfer(tc, buf, NULL, len, io);
}

/*
 * Gathers the bytes of iov after the first `skip' into the context's
 * buffer, up to a record.  Returns their count.
 */
static size_t
tls_gather(struct tls_ctx *ctx, const struct iovec *iov, int iovcnt,
    size_t skip)
{
	size_t len = 0, k;
	int i;

	for (i = 0; i < iovcnt && len < TLS_WBUF_SIZE; i++) {
		k = iov[i].iov_len;
		if (skip >= k) {
			skip -= k;
			continue;
		}
		k -= skip;
		if (k > TLS_WBUF_SIZE - len)
			k = TLS_WBUF_SIZE - len;
		memcpy(ctx->wbuf + len, (const char *)iov[i].iov_base + skip,
		    k);
		skip = 0;
		len += k;
	}
	return len;
}

/*
 * Writes a record at a time until everything is written or the library
 * stops.  Bytes written before a stop are reported first (TLS_IO_OK, a
 * short count); the stop itself comes again on the next call, which
 * offers the same first bytes.
 */
size_t
tls_writev(struct tls_conn *tc, const struct iovec *iov, int iovcnt,
    enum tls_io *io)
{
	size_t done = 0, len, n;

	*io = TLS_IO_OK;
	while ((len = tls_gather(tc->ctx, iov, iovcnt, done)) > 0) {
		n = tls_transfer(tc, NULL, tc->ctx->wbuf, len, io);
		if (*io != TLS_IO_OK) {
			if (done > 0)
				*io = TLS_IO_OK;
			break;
		}
		done += n;
	}
	return done;
}

size_t
tls_pending(const struct tls_conn *tc)
{
	int n;

	n = SSL_pending(tc->ssl);
	return n > 0 ? (size_t)n : 0;
}

int
tls_resumed(const struct tls_conn *tc)
{
	return SSL_session_reused(tc->ssl);
}

const char *
tls_conn_version(const struct tls_conn *tc)
{
	return SSL_get_version(tc->ssl);
}

const unsigned char *
tls_conn_alpn(const struct tls_conn *tc, size_t *len)
{
	const unsigned char *p = NULL;
	unsigned n = 0;

	SSL_get0_alpn_selected(tc->ssl, &p, &n);
	*len = p != NULL ? n : 0;
	return n > 0 ? p : NULL;
}

const char *
tls_conn_cipher(const struct tls_conn *tc)
{
	const char *name;

	name = SSL_get_cipher_name(tc->ssl);
	return name != NULL ? name : "(NONE)";
}

int
tls_conn_error(const struct tls_conn *tc)
{
	return tc->err;
}

const char *
tls_conn_strerror(const struct tls_conn *tc)
{
	return tc->msg;
}

void
tls_slot_clear(struct tls_slot *slot)
{
	SSL_SESSION_free(slot->session);
	slot->session = NULL;
}
