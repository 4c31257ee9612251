/*
 * Unit tests for the TLS module (src/net/tls.c).  Each test runs an
 * in-process OpenSSL server on the other end of a non-blocking socket
 * pair and drives client and server in turn, a bounded number of times.
 * The certificates (a CA, a server certificate it signs, an untrusted
 * self-signed one, a client certificate) are made here at start-up and
 * written as PEM to a temporary directory for the file options.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "lib/util.h"
#include "net/tls.h"
#include "unit.h"

#define BIG		(1024 * 1024)	/* bytes for the large transfers */
#define MAX_TURNS	100000		/* bound on any drive loop */

/* An extension to add to a certificate: NID and its config text. */
struct ext {
	int		 nid;
	const char	*value;
};

/* The certificates and the files the client options point at. */
static struct {
	char		 dir[64];
	char		 ca_file[128];
	char		 ca_dir[128];
	char		 ca_hash[160];
	char		 client_file[128];
	char		 client_keyfile[128];
	char		 combined[128];
	char		 other_key[128];
	char		 rsa_key[128];
	EVP_PKEY	*ca_key, *srv_key, *self_key, *client_key, *rsa;
	X509		*ca, *srv, *self, *client;
} fx;

/* The name the server's servername callback saw last. */
static char sni_seen[128];

/* One client connection and the server SSL on the other end. */
struct pair {
	int		 fd[2];
	struct tls_conn	*c;
	SSL		*s;		/* NULL: the test plays the server */
	int		 sdone;		/* server handshake complete */
	int		 sfail;		/* server handshake failed */
	int		 want_r;	/* client WANT_READ results */
	int		 want_w;	/* client WANT_WRITE results */
	int		 partial;	/* client writes shorter than offered */
};

/* Set-up runs outside any test: a failure there ends the program. */
static void
need(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "check_tls: set-up failed: %s\n", what);
		exit(2);
	}
}

/* Makes a P-256 key. */
static EVP_PKEY *
key_ec(void)
{
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
	return EVP_EC_gen("P-256");
#else
	EVP_PKEY_CTX *kc;
	EVP_PKEY *k = NULL;

	if ((kc = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, NULL)) == NULL ||
	    EVP_PKEY_keygen_init(kc) <= 0 ||
	    EVP_PKEY_CTX_set_ec_paramgen_curve_nid(kc,
	    NID_X9_62_prime256v1) <= 0 ||
	    EVP_PKEY_keygen(kc, &k) <= 0)
		k = NULL;
	EVP_PKEY_CTX_free(kc);
	return k;
#endif
}

/* Makes a 2048-bit RSA key. */
static EVP_PKEY *
key_rsa(void)
{
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
	return EVP_RSA_gen(2048);
#else
	EVP_PKEY_CTX *kc;
	EVP_PKEY *k = NULL;

	if ((kc = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, NULL)) == NULL ||
	    EVP_PKEY_keygen_init(kc) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_keygen_bits(kc, 2048) <= 0 ||
	    EVP_PKEY_keygen(kc, &k) <= 0)
		k = NULL;
	EVP_PKEY_CTX_free(kc);
	return k;
#endif
}

/*
 * Makes a certificate for `key' named `cn', signed by issuer/issuer_key
 * (both NULL: self-signed), with the extensions of `exts' (nid 0 ends).
 */
static X509 *
cert_make(EVP_PKEY *key, const char *cn, X509 *issuer, EVP_PKEY *issuer_key,
    long serial, const struct ext *exts)
{
	X509V3_CTX v3;
	X509_EXTENSION *e;
	X509_NAME *name;
	X509 *x;

	need(key != NULL, "key");
	need((x = X509_new()) != NULL, "X509_new");
	need(X509_set_version(x, 2) == 1 &&
	    ASN1_INTEGER_set(X509_get_serialNumber(x), serial) == 1 &&
	    X509_gmtime_adj(X509_getm_notBefore(x), -3600) != NULL &&
	    X509_gmtime_adj(X509_getm_notAfter(x), 86400) != NULL &&
	    X509_set_pubkey(x, key) == 1, "certificate fields");
	name = X509_get_subject_name(x);
	need(X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
	    (const unsigned char *)cn, -1, -1, 0) == 1 &&
	    X509_set_issuer_name(x, issuer != NULL ?
	    X509_get_subject_name(issuer) : name) == 1, "certificate names");
	X509V3_set_ctx(&v3, issuer != NULL ? issuer : x, x, NULL, NULL, 0);
	for (; exts->nid != 0; exts++) {
		e = X509V3_EXT_conf_nid(NULL, &v3, exts->nid, exts->value);
		need(e != NULL && X509_add_ext(x, e, -1) == 1,
		    exts->value);
		X509_EXTENSION_free(e);
	}
	need(X509_sign(x, issuer_key != NULL ? issuer_key : key,
	    EVP_sha256()) != 0, "X509_sign");
	return x;
}

/* Writes a certificate and/or a key as PEM to `path'. */
static void
pem_write(const char *path, X509 *x, EVP_PKEY *key)
{
	FILE *fp;

	need((fp = fopen(path, "w")) != NULL, path);
	need(x == NULL || PEM_write_X509(fp, x) == 1, path);
	need(key == NULL || PEM_write_PrivateKey(fp, key, NULL, NULL, 0,
	    NULL, NULL) == 1, path);
	need(fclose(fp) == 0, path);
}

/* Makes every key, certificate and file of the fixture. */
static void
fixture_make(void)
{
	static const struct ext ca_ext[] = {
		{ NID_basic_constraints, "critical,CA:TRUE" },
		{ NID_key_usage, "critical,keyCertSign,cRLSign" },
		{ 0, NULL },
	};
	static const struct ext srv_ext[] = {
		{ NID_basic_constraints, "CA:FALSE" },
		{ NID_subject_alt_name, "DNS:test.example,IP:127.0.0.1" },
		{ NID_ext_key_usage, "serverAuth" },
		{ 0, NULL },
	};
	static const struct ext client_ext[] = {
		{ NID_basic_constraints, "CA:FALSE" },
		{ NID_ext_key_usage, "clientAuth" },
		{ 0, NULL },
	};

	snprintf(fx.dir, sizeof(fx.dir), "/tmp/check_tls.XXXXXX");
	need(mkdtemp(fx.dir) != NULL, fx.dir);
	fx.ca_key = key_ec();
	fx.srv_key = key_ec();
	fx.self_key = key_ec();
	fx.client_key = key_ec();
	fx.rsa = key_rsa();
	need(fx.rsa != NULL, "RSA key");
	fx.ca = cert_make(fx.ca_key, "Test CA", NULL, NULL, 1, ca_ext);
	fx.srv = cert_make(fx.srv_key, "test.example", fx.ca, fx.ca_key, 2,
	    srv_ext);
	fx.self = cert_make(fx.self_key, "test.example", NULL, NULL, 3,
	    srv_ext);
	fx.client = cert_make(fx.client_key, "client", fx.ca, fx.ca_key, 4,
	    client_ext);

	snprintf(fx.ca_file, sizeof(fx.ca_file), "%s/ca.pem", fx.dir);
	snprintf(fx.ca_dir, sizeof(fx.ca_dir), "%s/certs", fx.dir);
	snprintf(fx.ca_hash, sizeof(fx.ca_hash), "%s/%08lx.0", fx.ca_dir,
	    X509_subject_name_hash(fx.ca));
	snprintf(fx.client_file, sizeof(fx.client_file), "%s/client.pem",
	    fx.dir);
	snprintf(fx.client_keyfile, sizeof(fx.client_keyfile),
	    "%s/client.key",
	    fx.dir);
	snprintf(fx.combined, sizeof(fx.combined), "%s/combined.pem",
	    fx.dir);
	snprintf(fx.other_key, sizeof(fx.other_key), "%s/other.key", fx.dir);
	snprintf(fx.rsa_key, sizeof(fx.rsa_key), "%s/rsa.key", fx.dir);
	need(mkdir(fx.ca_dir, 0700) == 0, fx.ca_dir);
	pem_write(fx.ca_file, fx.ca, NULL);
	pem_write(fx.ca_hash, fx.ca, NULL);
	pem_write(fx.client_file, fx.client, NULL);
	pem_write(fx.client_keyfile, NULL, fx.client_key);
	pem_write(fx.combined, fx.client, fx.client_key);
	pem_write(fx.other_key, NULL, fx.self_key);
	pem_write(fx.rsa_key, NULL, fx.rsa);
}

/* Removes the files and frees the fixture. */
static void
fixture_free(void)
{
	unlink(fx.ca_file);
	unlink(fx.ca_hash);
	unlink(fx.client_file);
	unlink(fx.client_keyfile);
	unlink(fx.combined);
	unlink(fx.other_key);
	unlink(fx.rsa_key);
	rmdir(fx.ca_dir);
	rmdir(fx.dir);
	X509_free(fx.ca);
	X509_free(fx.srv);
	X509_free(fx.self);
	X509_free(fx.client);
	EVP_PKEY_free(fx.ca_key);
	EVP_PKEY_free(fx.srv_key);
	EVP_PKEY_free(fx.self_key);
	EVP_PKEY_free(fx.client_key);
	EVP_PKEY_free(fx.rsa);
}

/* The server's servername callback: records what the client sent. */
static int
sni_cb(SSL *ssl, int *alert, void *arg)
{
	const char *name;

	name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
	snprintf(sni_seen, sizeof(sni_seen), "%s",
	    name != NULL ? name : "(none)");
	return SSL_TLSEXT_ERR_OK;
}

/*
 * Makes a server context presenting `cert', limited to `version' (0: any)
 * and, with `client_ca', requiring a client certificate from that CA.
 */
static SSL_CTX *
srv_ctx(X509 *cert, EVP_PKEY *key, int version, X509 *client_ca)
{
	SSL_CTX *sc;

	ck_assert_ptr_nonnull(sc = SSL_CTX_new(TLS_server_method()));
	ck_assert_int_eq(SSL_CTX_use_certificate(sc, cert), 1);
	ck_assert_int_eq(SSL_CTX_use_PrivateKey(sc, key), 1);
	SSL_CTX_set_mode(sc, SSL_MODE_ENABLE_PARTIAL_WRITE |
	    SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	if (version != 0) {
		ck_assert_int_eq(SSL_CTX_set_min_proto_version(sc, version),
		    1);
		ck_assert_int_eq(SSL_CTX_set_max_proto_version(sc, version),
		    1);
	}
	SSL_CTX_set_tlsext_servername_callback(sc, sni_cb);
	if (client_ca != NULL) {
		ck_assert_int_eq(X509_STORE_add_cert(SSL_CTX_get_cert_store(sc),
		    client_ca), 1);
		SSL_CTX_set_verify(sc, SSL_VERIFY_PEER |
		    SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
	}
	return sc;
}

/* Builds a client context that must succeed. */
static struct tls_ctx *
cli_ctx(const struct tls_config *cfg)
{
	struct tls_ctx *ctx;
	char err[256];

	ctx = tls_ctx_new(cfg, err, sizeof(err));
	if (ctx == NULL)
		ck_abort_msg("tls_ctx_new: %s", err);
	return ctx;
}

/* Expects tls_ctx_new to fail with a message starting with `prefix'. */
static void
cli_ctx_fails(const struct tls_config *cfg, const char *prefix)
{
	char err[256];

	err[0] = '\0';
	ck_assert_ptr_null(tls_ctx_new(cfg, err, sizeof(err)));
	ck_assert_msg(strncmp(err, prefix, strlen(prefix)) == 0,
	    "message '%s' does not start with '%s'", err, prefix);
	ck_assert_ptr_null(strchr(err, '\n'));
}

/* Connects a client to a server made from `sc' (NULL: none) over a pair. */
static void
pair_open(struct pair *p, struct tls_ctx *ctx, SSL_CTX *sc,
    struct tls_slot *slot)
{
	memset(p, 0, sizeof(*p));
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0,
	    p->fd), 0);
	ck_assert_ptr_nonnull(p->c = tls_conn_new(ctx, p->fd[0], slot));
	if (sc != NULL) {
		ck_assert_ptr_nonnull(p->s = SSL_new(sc));
		ck_assert_int_eq(SSL_set_fd(p->s, p->fd[1]), 1);
		SSL_set_accept_state(p->s);
	}
}

/* Closes the server's socket now: a transport EOF, no close_notify. */
static void
pair_srv_close(struct pair *p)
{
	ck_assert_int_eq(close(p->fd[1]), 0);
	p->fd[1] = -1;
}

/* Frees both ends. */
static void
pair_close(struct pair *p)
{
	tls_conn_free(p->c);
	SSL_free(p->s);
	ERR_clear_error();
	close(p->fd[0]);
	if (p->fd[1] != -1)
		close(p->fd[1]);
}

/* Takes one server handshake step, if one is due. */
static void
srv_step(struct pair *p)
{
	int ret, e;

	if (p->s == NULL || p->sdone || p->sfail)
		return;
	ret = SSL_do_handshake(p->s);
	if (ret == 1)
		p->sdone = 1;
	else {
		e = SSL_get_error(p->s, ret);
		if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE)
			p->sfail = 1;
	}
	ERR_clear_error();
}

/*
 * Runs both handshakes in turn until the client's is over and the
 * server's too (done or failed).  Returns the client's last result.
 */
static enum tls_io
pump_handshake(struct pair *p)
{
	enum tls_io io = TLS_IO_ERROR;
	int i;

	for (i = 0; i < 1000; i++) {
		io = tls_handshake(p->c);
		if (io == TLS_IO_WANT_READ)
			p->want_r++;
		else if (io == TLS_IO_WANT_WRITE)
			p->want_w++;
		else if (io != TLS_IO_OK)
			return io;
		srv_step(p);
		if (io == TLS_IO_OK && (p->s == NULL || p->sdone || p->sfail))
			return io;
	}
	ck_abort_msg("handshake did not finish");
	return io;
}

/* Byte `i' of a test stream. */
static unsigned char
pattern(size_t i)
{
	return (unsigned char)((i % 251) ^ (i >> 12));
}

/* Checks that buf holds stream bytes off .. off + n - 1. */
static void
pattern_check(const unsigned char *buf, size_t off, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (buf[i] != pattern(off + i))
			ck_abort_msg("byte %zu is wrong", off + i);
}

/*
 * Writes `len' bytes from the client, as three iovecs (1,000 bytes, then
 * 17,000, then the rest, as far as there are bytes), so that records are
 * gathered across iovec boundaries.
 */
static size_t
cli_write(struct pair *p, const void *buf, size_t len, enum tls_io *io)
{
	static const size_t cut[] = { 1000, 17000 };
	struct iovec iov[3];
	const char *b = buf;
	size_t i, k;
	int n = 0;

	for (i = 0; i < 3 && len > 0; i++) {
		k = i < 2 && cut[i] < len ? cut[i] : len;
		iov[n].iov_base = (void *)b;
		iov[n++].iov_len = k;
		b += k;
		len -= k;
	}
	return tls_writev(p->c, iov, n, io);
}

/*
 * Moves c2s bytes from client to server and s2c bytes back at the same
 * time, the client offering everything it has left at each write.
 */
static void
xfer(struct pair *p, size_t c2s, size_t s2c)
{
	static unsigned char out[BIG], in[65536];
	size_t cw = 0, cr = 0, sw = 0, sr = 0, n, i;
	enum tls_io io;
	int turn, ret, e;

	ck_assert_uint_le(c2s, BIG);
	ck_assert_uint_le(s2c, BIG);
	for (i = 0; i < BIG; i++)
		out[i] = pattern(i);
	for (turn = 0; turn < MAX_TURNS; turn++) {
		if (cw == c2s && cr == s2c && sw == s2c && sr == c2s)
			return;
		/* Write until the socket is full. */
		for (i = 0; i < 64 && cw < c2s; i++) {
			n = cli_write(p, out + cw, c2s - cw, &io);
			if (io == TLS_IO_WANT_WRITE) {
				p->want_w++;
				break;
			}
			ck_assert_int_eq(io, TLS_IO_OK);
			if (n < c2s - cw)
				p->partial++;
			cw += n;
		}
		while ((n = tls_read(p->c, in, sizeof(in), &io)) > 0) {
			pattern_check(in, cr, n);
			cr += n;
		}
		ck_assert_int_eq(io, TLS_IO_WANT_READ);
		if (sw < s2c) {
			n = 0;
			ret = SSL_write_ex(p->s, out + sw, s2c - sw, &n);
			e = SSL_get_error(p->s, ret);
			ck_assert(ret == 1 || e == SSL_ERROR_WANT_WRITE);
			sw += n;
		}
		for (;;) {
			n = 0;
			ret = SSL_read_ex(p->s, in, sizeof(in), &n);
			if (ret != 1)
				break;
			pattern_check(in, sr, n);
			sr += n;
		}
		ck_assert_int_eq(SSL_get_error(p->s, ret), SSL_ERROR_WANT_READ);
		ERR_clear_error();
	}
	ck_abort_msg("transfer did not finish");
}

/* Sends `s' from the server; it must fit into the socket at once. */
static void
srv_send(struct pair *p, const char *s)
{
	size_t n;

	ck_assert_int_eq(SSL_write_ex(p->s, s, strlen(s), &n), 1);
	ck_assert_uint_eq(n, strlen(s));
}

/* Reads what is there from the client's end, until it would block. */
static size_t
cli_drain(struct pair *p, enum tls_io *io)
{
	char buf[4096];
	size_t n, total = 0;
	int i;

	for (i = 0; i < 100; i++) {
		if ((n = tls_read(p->c, buf, sizeof(buf), io)) == 0)
			break;
		total += n;
	}
	return total;
}

/* Discards whatever the client has sent to the raw server socket. */
static void
raw_drain(struct pair *p)
{
	char buf[4096];

	while (read(p->fd[1], buf, sizeof(buf)) > 0)
		continue;
}

/* Expects a protocol error whose message mentions `what'. */
static void
expect_proto(struct pair *p, enum tls_io io, const char *what)
{
	const char *msg;

	ck_assert_int_eq(io, TLS_IO_ERROR);
	ck_assert_int_eq(tls_conn_error(p->c), EPROTO);
	msg = tls_conn_strerror(p->c);
	ck_assert_msg(strstr(msg, what) != NULL,
	    "message '%s' does not mention '%s'", msg, what);
	ck_assert_ptr_null(strchr(msg, '\n'));
}

START_TEST(test_handshake)
{
	struct tls_config cfg = { 0 };
	struct tls_ctx *ctx;
	struct pair p;
	SSL_CTX *sc;

	ctx = cli_ctx(&cfg);
	sc = srv_ctx(fx.srv, fx.srv_key, 0, NULL);
	pair_open(&p, ctx, sc, NULL);
	ck_assert_int_eq(pump_handshake(&p), TLS_IO_OK);
	ck_assert_int_gt(p.want_r, 0);
	ck_assert_int_eq(p.sdone, 1);
	ck_assert_str_eq(tls_conn_version(p.c), "TLSv1.3");
	ck_assert_str_eq(tls_conn_cipher(p.c),
	    SSL_CIPHER_get_name(SSL_get_current_cipher(p.s)));
	ck_assert_int_eq(tls_resumed(p.c), 0);
	pair_close(&p);
	SSL_CTX_free(sc);
	tls_ctx_free(ctx);
	tls_ctx_free(NULL);
	tls_conn_free(NULL);
}
END_TEST

START_TEST(test_data)
{
	struct tls_config cfg = { 0 };
	struct tls_ctx *ctx;
	struct pair p;
	SSL_CTX *sc;
	enum tls_io io;
	char buf[16];

	ctx = cli_ctx(&cfg);
	sc = srv_ctx(fx.srv, fx.srv_key, 0, NULL);
	pair_open(&p, ctx, sc, NULL);
	ck_assert_int_eq(pump_handshake(&p), TLS_IO_OK);

	/* Nothing to write is no error; nothing yet to read waits. */
	ck_assert_uint_eq(cli_write(&p, "", 0, &io), 0);
	ck_assert_int_eq(io, TLS_IO_OK);
	ck_assert_uint_eq(tls_read(p.c, buf, sizeof(buf), &io), 0);
	ck_assert_int_eq(io, TLS_IO_WANT_READ);

	/* A record read in part leaves the rest pending. */
	srv_send(&p, "0123456789abcdefghij");
	ck_assert_uint_eq(tls_read(p.c, buf, 4, &io), 4);
	ck_assert_int_eq(io, TLS_IO_OK);
	ck_assert_int_eq(memcmp(buf, "0123", 4), 0);
	ck_assert_uint_eq(tls_pending(p.c), 16);
	ck_assert_uint_eq(tls_read(p.c, buf, sizeof(buf), &io), 16);
	ck_assert_int_eq(memcmp(buf, "456789abcdefghij", 16), 0);
	ck_assert_uint_eq(tls_pending(p.c), 0);

	/* A megabyte each way, the client's through partial writes. */
	xfer(&p, BIG, BIG);
	ck_assert_int_gt(p.partial, 0);
	ck_assert_int_gt(p.want_w, 0);
	pair_close(&p);
	SSL_CTX_free(sc);
	tls_ctx_free(ctx);
}
END_TEST

/* Resumption, TLS 1.3 (tickets after the handshake) and TLS 1.2. */
START_TEST(test_resume)
{
	static const int versions[] = { TLS1_3_VERSION, TLS1_2_VERSION };
	static const char *const names[] = { "TLSv1.3", "TLSv1.2" };
	struct tls_config cfg = { 0 };
	struct tls_slot slot = { NULL }, fresh = { NULL };
	struct tls_ctx *ctx;
	struct pair p;
	SSL_CTX *sc;
	void *first;

	ctx = cli_ctx(&cfg);
	sc = srv_ctx(fx.srv, fx.srv_key, versions[_i], NULL);

	pair_open(&p, ctx, sc, &slot);
	ck_assert_int_eq(pump_handshake(&p), TLS_IO_OK);
	ck_assert_str_eq(tls_conn_version(p.c), names[_i]);
	ck_assert_int_eq(tls_resumed(p.c), 0);
	xfer(&p, 100, 100);
	pair_close(&p);
	ck_assert_ptr_nonnull(first = slot.session);

	pair_open(&p, ctx, sc, &slot);
	ck_assert_int_eq(pump_handshake(&p), TLS_IO_OK);
	ck_assert_int_eq(tls_resumed(p.c), 1);
	ck_assert_int_eq(SSL_session_reused(p.s), 1);
	xfer(&p, 100, 100);
	pair_close(&p);
	ck_assert_ptr_nonnull(slot.session);
	if (_i == 0)	/* TLS 1.3 issues new tickets on resumption */
		ck_assert_ptr_ne(slot.session, first);

	pair_open(&p, ctx, sc, &fresh);
	ck_assert_int_eq(pump_handshake(&p), TLS_IO_OK);
	ck_assert_int_eq(tls_resumed(p.c), 0);
	xfer(&p, 100, 100);
	pair_close(&p);
	ck_assert_ptr_nonnull(fresh.session);

	pair_open(&p, ctx, sc, NULL);
	ck_assert_int_eq(pump_handshake(&p), TLS_IO_OK);
	ck_assert_int_eq(tls_resumed(p.c), 0);
	xfer(&p, 100, 100);
	pair_close(&p);

	/* The slot is kept until cleared, then resumes nothing. */
	tls_slot_clear(&slot);
	ck_assert_ptr_null(slot.session);
	tls_slot_clear(&slot);
	pair_open(&p, ctx, sc, &slot);
	ck_assert_int_eq(pump_handshake(&p), TLS_IO_OK);
	ck_assert_int_eq(tls_resumed(p.c), 0);
	pair_close(&p);

	tls_slot_clear(&slot);
	tls_slot_clear(&fresh);
	SSL_CTX_free(sc);
	tls_ctx_free(ctx);
}
END_TEST

/*
 * The server's ticket callback, as lighttpd's, h2o's and Node's: a ticket
 * that decrypts is used as it is, never renewed, so a resumed TLS 1.3
 * connection gets no new ticket.
 */
static SSL_TICKET_RETURN
ticket_keep(SSL *ssl, SSL_SESSION *sess, const unsigned char *name,
    size_t namelen, SSL_TICKET_STATUS status, void *arg)
{
	(void)ssl;
	(void)sess;
	(void)name;
	(void)namelen;
	(void)arg;
	if (status == SSL_TICKET_SUCCESS ||
	    status == SSL_TICKET_SUCCESS_RENEW)
		return SSL_TICKET_RETURN_USE;
	return SSL_TICKET_RETURN_IGNORE_RENEW;
}

/*
 * Resumption from a server that renews no ticket: the slot's ticket is
 * offered again and again (the library marks the session a TLS 1.3
 * handshake resumed as used up: offered itself, it would make every
 * other handshake a full one).  Even and odd loop values: TLS 1.3 and
 * 1.2.
 */
START_TEST(test_resume_kept_ticket)
{
	static const int versions[] = { TLS1_3_VERSION, TLS1_2_VERSION };
	struct tls_config cfg = { 0 };
	struct tls_slot slot = { NULL };
	struct tls_ctx *ctx;
	struct pair p;
	SSL_CTX *sc;
	int i;

	ctx = cli_ctx(&cfg);
	sc = srv_ctx(fx.srv, fx.srv_key, versions[_i], NULL);
	ck_assert_int_eq(SSL_CTX_set_session_ticket_cb(sc, NULL, ticket_keep,
	    NULL), 1);
	for (i = 0; i < 4; i++) {
		pair_open(&p, ctx, sc, &slot);
		ck_assert_int_eq(pump_handshake(&p), TLS_IO_OK);
		ck_assert_msg(tls_resumed(p.c) == (i > 0),
		    "connection %d: resumed %d", i, tls_resumed(p.c));
		xfer(&p, 100, 100);
		pair_close(&p);
		ck_assert_ptr_nonnull(slot.session);
	}
	tls_slot_clear(&slot);
	SSL_CTX_free(sc);
	tls_ctx_free(ctx);
}
END_TEST

/*
 * A server that closes without close_notify: its session still resumes
 * (the library marks a session whose connection is freed without one
 * sent as not resumable; the slot keeps a copy of its own).
 */
START_TEST(test_resume_abrupt_close)
{
	static const int versions[] = { TLS1_3_VERSION, TLS1_2_VERSION };
	struct tls_config cfg = { 0 };
	struct tls_slot slot = { NULL };
	struct tls_ctx *ctx;
	struct pair p;
	SSL_CTX *sc;
	enum tls_io io;
	char buf[16];
	int i;

	ctx = cli_ctx(&cfg);
	sc = srv_ctx(fx.srv, fx.srv_key, versions[_i], NULL);
	for (i = 0; i < 3; i++) {
		pair_open(&p, ctx, sc, &slot);
		ck_assert_int_eq(pump_handshake(&p), TLS_IO_OK);
		ck_assert_msg(tls_resumed(p.c) == (i > 0),
		    "connection %d: resumed %d", i, tls_resumed(p.c));
		xfer(&p, 100, 100);
		srv_send(&p, "bye");
		/* The server's session stays good in its cache. */
		SSL_set_shutdown(p.s, SSL_SENT_SHUTDOWN);
		pair_srv_close(&p);
		ck_assert_uint_eq(tls_read(p.c, buf, sizeof(buf), &io), 3);
		ck_assert_uint_eq(tls_read(p.c, buf, sizeof(buf), &io), 0);
		ck_assert_int_eq(io, TLS_IO_EOF);
		pair_close(&p);
	}
	tls_slot_clear(&slot);
	SSL_CTX_free(sc);
	tls_ctx_free(ctx);
}
END_TEST

START_TEST(test_sni)
{
	struct tls_config cfg = { 0 };
	struct tls_ctx *ctx;
	struct pair p;
	SSL_CTX *sc;

	sc = srv_ctx(fx.srv, fx.srv_key, 0, NULL);
	cfg.sni = "test.example";
	ctx = cli_ctx(&cfg);
	sni_seen[0] = '\0';
	pair_open(&p, ctx, sc, NULL);
	ck_assert_int_eq(pump_handshake(&p), TLS_IO_OK);
	ck_assert_str_eq(sni_seen, "test.example");
	pair_close(&p);
	tls_ctx_free(ctx);

	cfg.sni = NULL;
	ctx = cli_ctx(&cfg);
	sni_seen[0] = '\0';
	pair_open(&p, ctx, sc, NULL);
	ck_assert_int_eq(pump_handshake(&p), TLS_IO_OK);
	ck_assert_str_eq(sni_seen, "(none)");
	pair_close(&p);
	tls_ctx_free(ctx);
	SSL_CTX_free(sc);
}
END_TEST

/* Runs one handshake against a server presenting cert/key. */
static enum tls_io
one_handshake(const struct tls_config *cfg, X509 *cert, EVP_PKEY *key,
    struct pair *p, SSL_CTX **scp, struct tls_ctx **ctxp)
{
	*ctxp = cli_ctx(cfg);
	*scp = srv_ctx(cert, key, 0, NULL);
	pair_open(p, *ctxp, *scp, NULL);
	return pump_handshake(p);
}

/* Frees what one_handshake made. */
static void
one_done(struct pair *p, SSL_CTX *sc, struct tls_ctx *ctx)
{
	pair_close(p);
	SSL_CTX_free(sc);
	tls_ctx_free(ctx);
}

START_TEST(test_verify_untrusted)
{
	struct tls_config cfg = { 0 };
	struct tls_ctx *ctx;
	struct pair p;
	SSL_CTX *sc;

	cfg.verify = 1;
	cfg.ca_file = fx.ca_file;
	cfg.verify_name = "test.example";
	expect_proto(&p, one_handshake(&cfg, fx.self, fx.self_key, &p, &sc,
	    &ctx), "certificate");
	one_done(&p, sc, ctx);

	/* The same certificate is fine when nobody checks it. */
	cfg.verify = 0;
	ck_assert_int_eq(one_handshake(&cfg, fx.self, fx.self_key, &p, &sc,
	    &ctx), TLS_IO_OK);
	one_done(&p, sc, ctx);
}
END_TEST

START_TEST(test_verify_trusted)
{
	static const char *const names[] = {
		"test.example", "127.0.0.1", NULL,
	};
	struct tls_config cfg = { 0 };
	struct tls_ctx *ctx;
	struct pair p;
	SSL_CTX *sc;
	size_t i;

	cfg.verify = 1;
	cfg.ca_file = fx.ca_file;
	for (i = 0; i < nitems(names); i++) {
		cfg.verify_name = names[i];
		ck_assert_int_eq(one_handshake(&cfg, fx.srv, fx.srv_key, &p,
		    &sc, &ctx), TLS_IO_OK);
		one_done(&p, sc, ctx);
	}

	/* A hashed directory works as well as a file. */
	cfg.ca_file = NULL;
	cfg.ca_path = fx.ca_dir;
	cfg.verify_name = "test.example";
	ck_assert_int_eq(one_handshake(&cfg, fx.srv, fx.srv_key, &p, &sc,
	    &ctx), TLS_IO_OK);
	one_done(&p, sc, ctx);
}
END_TEST

START_TEST(test_verify_mismatch)
{
	static const char *const names[] = { "other.example", "127.0.0.2" };
	struct tls_config cfg = { 0 };
	struct tls_ctx *ctx;
	struct pair p;
	SSL_CTX *sc;
	size_t i;

	cfg.verify = 1;
	cfg.ca_file = fx.ca_file;
	for (i = 0; i < nitems(names); i++) {
		cfg.verify_name = names[i];
		expect_proto(&p, one_handshake(&cfg, fx.srv, fx.srv_key, &p,
		    &sc, &ctx), "mismatch");
		expect_proto(&p, TLS_IO_ERROR, "certificate");
		one_done(&p, sc, ctx);
	}
}
END_TEST

/*
 * Runs a handshake against a server that requires a client certificate,
 * then one read: under TLS 1.3 the client learns of the refusal only
 * after its side of the handshake.  Returns the first failure or OK.
 */
static enum tls_io
client_cert_run(const struct tls_config *cfg, int version)
{
	struct tls_ctx *ctx;
	struct pair p;
	SSL_CTX *sc;
	enum tls_io io;
	X509 *peer;

	ctx = cli_ctx(cfg);
	sc = srv_ctx(fx.srv, fx.srv_key, version, fx.ca);
	pair_open(&p, ctx, sc, NULL);
	io = pump_handshake(&p);
	if (io == TLS_IO_OK) {
		(void)cli_drain(&p, &io);
		if (io == TLS_IO_WANT_READ)
			io = TLS_IO_OK;
	}
	if (io == TLS_IO_OK) {
		ck_assert_int_eq(p.sdone, 1);
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
		peer = SSL_get1_peer_certificate(p.s);
#else
		peer = SSL_get_peer_certificate(p.s);
#endif
		ck_assert_ptr_nonnull(peer);
		ck_assert_int_eq(X509_cmp(peer, fx.client), 0);
		X509_free(peer);
	} else {
		/* "certificate required" (1.3), "handshake failure" */
		ck_assert_int_eq(p.sfail, 1);
		expect_proto(&p, io, "alert");
	}
	pair_close(&p);
	SSL_CTX_free(sc);
	tls_ctx_free(ctx);
	return io;
}

START_TEST(test_client_cert)
{
	static const int versions[] = { TLS1_3_VERSION, TLS1_2_VERSION };
	struct tls_config cfg = { 0 };
	int v = versions[_i];

	ck_assert_int_eq(client_cert_run(&cfg, v), TLS_IO_ERROR);
	cfg.cert_file = fx.client_file;
	cfg.key_file = fx.client_keyfile;
	ck_assert_int_eq(client_cert_run(&cfg, v), TLS_IO_OK);
	cfg.cert_file = fx.combined;
	cfg.key_file = NULL;
	ck_assert_int_eq(client_cert_run(&cfg, v), TLS_IO_OK);
}
END_TEST

START_TEST(test_ctx_errors)
{
	struct tls_config cfg = { 0 };
	struct tls_ctx *ctx;
	char err[256];

	cfg.cert_file = fx.client_file;
	cfg.key_file = fx.other_key;
	cli_ctx_fails(&cfg, "--ssl-key: the key does not match the "
	    "certificate");
	cfg.key_file = fx.rsa_key;
	cli_ctx_fails(&cfg, "--ssl-key: the key does not match the "
	    "certificate");
	cfg.key_file = NULL;		/* the certificate file has no key */
	cli_ctx_fails(&cfg, "--ssl-key: cannot load '");
	cfg.key_file = "/nonexistent/key.pem";
	cli_ctx_fails(&cfg, "--ssl-key: cannot load '/nonexistent/key.pem'");
	cfg.cert_file = "/nonexistent/cert.pem";
	cli_ctx_fails(&cfg, "--ssl-certificate: cannot load "
	    "'/nonexistent/cert.pem': ");
	cfg.cert_file = NULL;
	cfg.key_file = NULL;

	cfg.ciphers = "NO-SUCH-CIPHER";
	cli_ctx_fails(&cfg, "--ssl-ciphers: no cipher matches "
	    "'NO-SUCH-CIPHER'");
	cfg.ciphers = NULL;
	cfg.ciphersuites = "TLS_NO_SUCH_SUITE";
	cli_ctx_fails(&cfg, "--ssl-ciphersuites: ");
	cfg.ciphersuites = NULL;

	cfg.verify = 1;
	cfg.ca_file = "/nonexistent/ca.pem";
	cli_ctx_fails(&cfg, "--ssl-ca-file: cannot load "
	    "'/nonexistent/ca.pem': ");
	cfg.ca_file = fx.client_keyfile;	/* a key, no certificate */
	cli_ctx_fails(&cfg, "--ssl-ca-file: ");
	cfg.ca_file = NULL;
	cfg.verify = 0;

	cfg.min_version = TLS_VERSION_1_3;
	cfg.max_version = TLS_VERSION_1_2;
	cli_ctx_fails(&cfg, "--ssl-protocol: minimum TLSv1.3 is above "
	    "maximum TLSv1.2");

	/* Old protocols: either usable or refused by name. */
	cfg.min_version = TLS_VERSION_1_0;
	cfg.max_version = TLS_VERSION_1_0;
	err[0] = '\0';
	ctx = tls_ctx_new(&cfg, err, sizeof(err));
	if (ctx == NULL)
		ck_assert_str_eq(err, "--ssl-protocol: TLSv1.0 is not "
		    "available in this OpenSSL");
	tls_ctx_free(ctx);
}
END_TEST

START_TEST(test_ciphers)
{
	static const char *const suites[] = {
		"TLS_CHACHA20_POLY1305_SHA256", "TLS_AES_256_GCM_SHA384",
	};
	struct tls_config cfg = { 0 };
	struct tls_ctx *ctx;
	struct pair p;
	SSL_CTX *sc;
	size_t i;

	for (i = 0; i < nitems(suites); i++) {
		cfg.ciphersuites = suites[i];
		ck_assert_int_eq(one_handshake(&cfg, fx.srv, fx.srv_key, &p,
		    &sc, &ctx), TLS_IO_OK);
		ck_assert_str_eq(tls_conn_version(p.c), "TLSv1.3");
		ck_assert_str_eq(tls_conn_cipher(p.c), suites[i]);
		one_done(&p, sc, ctx);
	}

	/* TLS 1.2 only, with a chosen TLS 1.2 cipher. */
	cfg.ciphersuites = NULL;
	cfg.min_version = TLS_VERSION_1_2;
	cfg.max_version = TLS_VERSION_1_2;
	cfg.ciphers = "ECDHE-ECDSA-CHACHA20-POLY1305";
	ck_assert_int_eq(one_handshake(&cfg, fx.srv, fx.srv_key, &p, &sc,
	    &ctx), TLS_IO_OK);
	ck_assert_str_eq(tls_conn_version(p.c), "TLSv1.2");
	ck_assert_str_eq(tls_conn_cipher(p.c), "ECDHE-ECDSA-CHACHA20-POLY1305");
	xfer(&p, 1000, 1000);
	one_done(&p, sc, ctx);
}
END_TEST

/*
 * TLS 1.0 and 1.1 named explicitly work against a server that speaks
 * them (OpenSSL 3 needs security level 0 on both sides for that), unless
 * this OpenSSL was built without them.
 */
START_TEST(test_old_protocol)
{
	static const enum tls_version ours[] = {
		TLS_VERSION_1_0, TLS_VERSION_1_1,
	};
	static const int theirs[] = { TLS1_VERSION, TLS1_1_VERSION };
	static const char *const names[] = { "TLSv1", "TLSv1.1" };
	struct tls_config cfg = { 0 };
	struct tls_ctx *ctx;
	struct pair p;
	SSL_CTX *sc;
	char err[256];

	cfg.min_version = cfg.max_version = ours[_i];
	if ((ctx = tls_ctx_new(&cfg, err, sizeof(err))) == NULL)
		return;
	ck_assert_ptr_nonnull(sc = SSL_CTX_new(TLS_server_method()));
	if (!SSL_CTX_set_min_proto_version(sc, theirs[_i]) ||
	    !SSL_CTX_set_max_proto_version(sc, theirs[_i])) {
		SSL_CTX_free(sc);
		tls_ctx_free(ctx);
		return;
	}
	SSL_CTX_set_security_level(sc, 0);
	ck_assert_int_eq(SSL_CTX_use_certificate(sc, fx.srv), 1);
	ck_assert_int_eq(SSL_CTX_use_PrivateKey(sc, fx.srv_key), 1);
	pair_open(&p, ctx, sc, NULL);
	ck_assert_int_eq(pump_handshake(&p), TLS_IO_OK);
	ck_assert_str_eq(tls_conn_version(p.c), names[_i]);
	xfer(&p, 5000, 5000);
	pair_close(&p);
	SSL_CTX_free(sc);
	tls_ctx_free(ctx);
}
END_TEST

START_TEST(test_plaintext_peer)
{
	static const char reply[] = "HTTP/1.1 200 OK\r\n"
	    "Content-Length: 0\r\n\r\n";
	struct tls_config cfg = { 0 };
	struct tls_ctx *ctx;
	struct pair p;

	ctx = cli_ctx(&cfg);
	pair_open(&p, ctx, NULL, NULL);
	ck_assert_int_eq(tls_handshake(p.c), TLS_IO_WANT_READ);
	raw_drain(&p);
	ck_assert_int_eq(write(p.fd[1], reply, sizeof(reply) - 1),
	    (ssize_t)sizeof(reply) - 1);
	expect_proto(&p, tls_handshake(p.c), "");
	ck_assert_str_ne(tls_conn_strerror(p.c), "");
	/* A failed connection stays failed. */
	ck_assert_int_eq(tls_handshake(p.c), TLS_IO_ERROR);
	pair_close(&p);
	tls_ctx_free(ctx);
}
END_TEST

/*
 * The peer goes away during the handshake.  A clean close (everything the
 * client sent was read) is EOF, as for HTTP; a close with unread data,
 * which the kernel turns into a reset, is ERROR with ECONNRESET.  The
 * caller counts both as a failed connection.
 */
START_TEST(test_close_in_handshake)
{
	struct tls_config cfg = { 0 };
	struct tls_ctx *ctx;
	struct pair p;

	ctx = cli_ctx(&cfg);
	pair_open(&p, ctx, NULL, NULL);
	ck_assert_int_eq(tls_handshake(p.c), TLS_IO_WANT_READ);
	raw_drain(&p);
	pair_srv_close(&p);
	ck_assert_int_eq(tls_handshake(p.c), TLS_IO_EOF);
	pair_close(&p);

	pair_open(&p, ctx, NULL, NULL);
	ck_assert_int_eq(tls_handshake(p.c), TLS_IO_WANT_READ);
	pair_srv_close(&p);
	ck_assert_int_eq(tls_handshake(p.c), TLS_IO_ERROR);
	ck_assert_int_eq(tls_conn_error(p.c), ECONNRESET);
	ck_assert_str_eq(tls_conn_strerror(p.c), strerror(ECONNRESET));
	pair_close(&p);
	tls_ctx_free(ctx);
}
END_TEST

START_TEST(test_close_notify)
{
	struct tls_config cfg = { 0 };
	struct tls_ctx *ctx;
	struct pair p;
	SSL_CTX *sc;
	enum tls_io io;
	char buf[16];
	size_t n;
	int ret;

	ctx = cli_ctx(&cfg);
	sc = srv_ctx(fx.srv, fx.srv_key, 0, NULL);
	pair_open(&p, ctx, sc, NULL);
	ck_assert_int_eq(pump_handshake(&p), TLS_IO_OK);
	xfer(&p, 100, 100);
	srv_send(&p, "bye");
	ck_assert_int_eq(SSL_shutdown(p.s), 0);
	ck_assert_uint_eq(tls_read(p.c, buf, sizeof(buf), &io), 3);
	ck_assert_uint_eq(tls_read(p.c, buf, sizeof(buf), &io), 0);
	ck_assert_int_eq(io, TLS_IO_EOF);
	ck_assert_int_eq(tls_conn_error(p.c), 0);

	/* Freeing the connection answers with a close_notify of its own. */
	tls_conn_free(p.c);
	p.c = NULL;
	ret = SSL_read_ex(p.s, buf, sizeof(buf), &n);
	ck_assert_int_eq(ret, 0);
	ck_assert_int_eq(SSL_get_error(p.s, ret), SSL_ERROR_ZERO_RETURN);
	pair_close(&p);
	SSL_CTX_free(sc);
	tls_ctx_free(ctx);
}
END_TEST

START_TEST(test_close_abrupt)
{
	struct tls_config cfg = { 0 };
	struct tls_ctx *ctx;
	struct pair p;
	SSL_CTX *sc;
	enum tls_io io;
	char buf[16];

	ctx = cli_ctx(&cfg);
	sc = srv_ctx(fx.srv, fx.srv_key, 0, NULL);

	/* TCP EOF after data, no close_notify: EOF as well. */
	pair_open(&p, ctx, sc, NULL);
	ck_assert_int_eq(pump_handshake(&p), TLS_IO_OK);
	xfer(&p, 100, 100);
	srv_send(&p, "bye");
	pair_srv_close(&p);
	ck_assert_uint_eq(tls_read(p.c, buf, sizeof(buf), &io), 3);
	ck_assert_uint_eq(tls_read(p.c, buf, sizeof(buf), &io), 0);
	ck_assert_int_eq(io, TLS_IO_EOF);
	pair_close(&p);

	/* Writing to a closed peer: the socket's error. */
	pair_open(&p, ctx, sc, NULL);
	ck_assert_int_eq(pump_handshake(&p), TLS_IO_OK);
	xfer(&p, 100, 100);
	pair_srv_close(&p);
	ck_assert_uint_eq(cli_write(&p, "GET / HTTP/1.1\r\n\r\n", 18, &io),
	    0);
	ck_assert_int_eq(io, TLS_IO_ERROR);
	ck_assert_int_eq(tls_conn_error(p.c), EPIPE);
	pair_close(&p);

	/*
	 * A reply, then the close, before the request is written (an
	 * early reply): the write fails, and the reply is still read, then
	 * the EOF; writes keep failing.
	 */
	pair_open(&p, ctx, sc, NULL);
	ck_assert_int_eq(pump_handshake(&p), TLS_IO_OK);
	xfer(&p, 100, 100);
	srv_send(&p, "HTTP/1.1 413\r\n");
	pair_srv_close(&p);
	ck_assert_uint_eq(cli_write(&p, "POST / HTTP/1.1\r\n", 17, &io), 0);
	ck_assert_int_eq(io, TLS_IO_ERROR);
	ck_assert_int_eq(tls_conn_error(p.c), EPIPE);
	ck_assert_uint_eq(tls_read(p.c, buf, sizeof(buf), &io), 14);
	ck_assert_int_eq(io, TLS_IO_OK);
	ck_assert_int_eq(memcmp(buf, "HTTP/1.1 413\r\n", 14), 0);
	ck_assert_uint_eq(tls_read(p.c, buf, sizeof(buf), &io), 0);
	ck_assert_int_eq(io, TLS_IO_EOF);
	ck_assert_uint_eq(cli_write(&p, "x", 1, &io), 0);
	ck_assert_int_eq(io, TLS_IO_ERROR);
	pair_close(&p);

	SSL_CTX_free(sc);
	tls_ctx_free(ctx);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("tls");
	TCase *tc = tcase_create("core");
	int status;

	/* As in the program: a write to a closed peer is an error. */
	signal(SIGPIPE, SIG_IGN);
	fixture_make();
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_handshake);
	tcase_add_test(tc, test_data);
	tcase_add_loop_test(tc, test_resume, 0, 2);
	tcase_add_loop_test(tc, test_resume_kept_ticket, 0, 2);
	tcase_add_loop_test(tc, test_resume_abrupt_close, 0, 2);
	tcase_add_test(tc, test_sni);
	tcase_add_test(tc, test_verify_untrusted);
	tcase_add_test(tc, test_verify_trusted);
	tcase_add_test(tc, test_verify_mismatch);
	tcase_add_loop_test(tc, test_client_cert, 0, 2);
	tcase_add_test(tc, test_ctx_errors);
	tcase_add_test(tc, test_ciphers);
	tcase_add_loop_test(tc, test_old_protocol, 0, 2);
	tcase_add_test(tc, test_plaintext_peer);
	tcase_add_test(tc, test_close_in_handshake);
	tcase_add_test(tc, test_close_notify);
	tcase_add_test(tc, test_close_abrupt);
	suite_add_tcase(s, tc);
	status = unit_run(s);
	fixture_free();
	return status;
}
