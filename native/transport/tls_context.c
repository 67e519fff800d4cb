#include "tls_context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/pem.h>

// The server's protocols in wire format, in its order of preference: the
// first of them that the client offers wins, whatever the client's order
// (RFC 7301 3.2). A client that offers ALPN without any of them gets a
// no_application_protocol alert; one that offers none goes on without ALPN.
typedef struct alpn_list {
    size_t len;
    unsigned char bytes[];
} alpn_list;

static int alpn_index;

static int select_alpn(SSL *ssl, const unsigned char **out, unsigned char *outlen, const unsigned char *in,
                       unsigned int inlen, void *arg)
{
    (void)arg;
    const alpn_list *list = SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), alpn_index);
    unsigned char *chosen;
    if (SSL_select_next_proto(&chosen, outlen, list->bytes, (unsigned int)list->len, in, inlen) !=
        OPENSSL_NPN_NEGOTIATED)
        return SSL_TLSEXT_ERR_ALERT_FATAL;
    *out = chosen;
    return SSL_TLSEXT_ERR_OK;
}

static void openssl_error(char *err, size_t err_size, const char *what)
{
    unsigned long code = ERR_get_error();
    char reason[256] = "no detail";
    if (code)
        ERR_error_string_n(code, reason, sizeof reason);
    snprintf(err, err_size, "%s: %s", what, reason);
    ERR_clear_error();
}

// The leaf first, then any intermediates, as in a PEM chain file.
static int use_chain(SSL_CTX *ctx, const char *pem, size_t len, char *err, size_t err_size)
{
    BIO *bio = BIO_new_mem_buf(pem, (int)len);
    if (!bio)
        return openssl_error(err, err_size, "cannot read the certificate"), 0;
    X509 *leaf = PEM_read_bio_X509_AUX(bio, NULL, NULL, NULL);
    int ok = leaf && SSL_CTX_use_certificate(ctx, leaf) == 1;
    X509_free(leaf);
    if (!ok) {
        BIO_free(bio);
        return openssl_error(err, err_size, "the certificate is not a PEM certificate"), 0;
    }
    X509 *extra;
    while ((extra = PEM_read_bio_X509(bio, NULL, NULL, NULL)) != NULL) {
        if (SSL_CTX_add0_chain_cert(ctx, extra) != 1) {
            X509_free(extra);
            BIO_free(bio);
            return openssl_error(err, err_size, "cannot add an intermediate certificate"), 0;
        }
    }
    ERR_clear_error(); // the end of the PEM data reads as an error
    BIO_free(bio);
    return 1;
}

static int use_key(SSL_CTX *ctx, const char *pem, size_t len, char *err, size_t err_size)
{
    BIO *bio = BIO_new_mem_buf(pem, (int)len);
    EVP_PKEY *key = bio ? PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL) : NULL;
    BIO_free(bio);
    int ok = key && SSL_CTX_use_PrivateKey(ctx, key) == 1;
    EVP_PKEY_free(key);
    if (!ok)
        return openssl_error(err, err_size, "the key is not an unencrypted PEM private key"), 0;
    if (SSL_CTX_check_private_key(ctx) != 1)
        return openssl_error(err, err_size, "the key does not match the certificate"), 0;
    return 1;
}

static void free_alpn(void *parent, void *ptr, CRYPTO_EX_DATA *ad, int idx, long argl, void *argp)
{
    (void)parent;
    (void)ad;
    (void)idx;
    (void)argl;
    (void)argp;
    free(ptr);
}

static CRYPTO_ONCE alpn_once = CRYPTO_ONCE_STATIC_INIT;

static void alpn_index_init(void)
{
    alpn_index = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, free_alpn);
}

static int use_alpn(SSL_CTX *ctx, const unsigned char *alpn, size_t alpn_len, char *err, size_t err_size)
{
    alpn_list *list = malloc(sizeof *list + alpn_len);
    if (!CRYPTO_THREAD_run_once(&alpn_once, alpn_index_init) || alpn_index < 0 || !list ||
        !SSL_CTX_set_ex_data(ctx, alpn_index, list)) {
        free(list);
        return openssl_error(err, err_size, "cannot set the ALPN protocols"), 0;
    }
    list->len = alpn_len;
    memcpy(list->bytes, alpn, alpn_len);
    SSL_CTX_set_alpn_select_cb(ctx, select_alpn, NULL);
    return 1;
}

static int refuse_renegotiation(SSL *ssl, int *alert, void *arg)
{
    // The client's Finished of an earlier handshake on this connection: this
    // ClientHello asks to renegotiate (OpenSSL's own test).
    unsigned char finished[EVP_MAX_MD_SIZE];
    if (SSL_get_peer_finished(ssl, finished, sizeof finished) == 0)
        return SSL_CLIENT_HELLO_SUCCESS;
    const tls_renegotiation_hook *hook = arg;
    if (hook && hook->refused)
        hook->refused(ssl);
    *alert = SSL_AD_NO_RENEGOTIATION;
    return SSL_CLIENT_HELLO_ERROR;
}

void tls_context_on_renegotiation(SSL_CTX *ctx, const tls_renegotiation_hook *hook)
{
    SSL_CTX_set_client_hello_cb(ctx, refuse_renegotiation, (void *)hook);
}

SSL_CTX *tls_identity_new(const SSL_METHOD *method, const char *cert_pem, size_t cert_len, const char *key_pem,
                          size_t key_len, const unsigned char *alpn, size_t alpn_len, char *err, size_t err_size)
{
    SSL_CTX *ctx = SSL_CTX_new(method);
    if (!ctx)
        return openssl_error(err, err_size, "cannot create a TLS context"), NULL;
    if (!use_alpn(ctx, alpn, alpn_len, err, err_size) || !use_chain(ctx, cert_pem, cert_len, err, err_size) ||
        !use_key(ctx, key_pem, key_len, err, err_size)) {
        SSL_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

SSL_CTX *tls_context_new(const char *cert_pem, size_t cert_len, const char *key_pem, size_t key_len,
                         const unsigned char *alpn, size_t alpn_len, char *err, size_t err_size)
{
    SSL_CTX *ctx = tls_identity_new(TLS_server_method(), cert_pem, cert_len, key_pem, key_len, alpn, alpn_len, err, err_size);
    if (!ctx)
        return NULL;
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    // No renegotiation (a client could make the server redo handshakes),
    // refused by refuse_renegotiation rather than SSL_OP_NO_RENEGOTIATION,
    // which answers with a warning alert at once and tells no one; no
    // compression (CRIME). Tickets stay on, as in node:tls and nginx. A peer
    // that closes TCP without close_notify ends its input like one that sends
    // it (what node:tls does): HTTP framing, not TLS, says what was complete.
    SSL_CTX_set_options(ctx, SSL_OP_ALLOW_CLIENT_RENEGOTIATION | SSL_OP_NO_COMPRESSION | SSL_OP_IGNORE_UNEXPECTED_EOF);
    tls_context_on_renegotiation(ctx, NULL);
    // Partial writes let a large response go out as the socket takes it; a
    // retried write may come from a copy of the unsent bytes.
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    // Read as many bytes as the socket has in one read(2) instead of a
    // record header and then its body: one syscall per request, not two.
    SSL_CTX_set_read_ahead(ctx, 1);
    SSL_CTX_set_session_id_context(ctx, (const unsigned char *)"negotiate-h2", 12);
    return ctx;
}
