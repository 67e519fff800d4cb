// The server's TLS context: certificate chain and key from PEM bytes,
// TLS 1.2 and 1.3, the ALPN protocols given. OpenSSL is the node binary's own (3.0),
// whose symbols the addon resolves at load time.
#ifndef TRANSPORT_TLS_CONTEXT_H
#define TRANSPORT_TLS_CONTEXT_H

#include <stddef.h>
#include <openssl/ssl.h>

// An SSL_CTX of `method` with the chain, key and ALPN protocols alone: the
// QUIC transport's (native/quic/) whole context, the base of the one below.
SSL_CTX *tls_identity_new(const SSL_METHOD *method, const char *cert_pem, size_t cert_len, const char *key_pem,
                          size_t key_len, const unsigned char *alpn, size_t alpn_len, char *err, size_t err_size);

// alpn: the protocols in ALPN wire format (length-prefixed names), most
// preferred first. NULL on failure, with a message for the user in err
// (err_size bytes).
SSL_CTX *tls_context_new(const char *cert_pem, size_t cert_len, const char *key_pem, size_t key_len,
                         const unsigned char *alpn, size_t alpn_len, char *err, size_t err_size);

// A context of tls_context_new refuses a client's renegotiation (TLS 1.2) at
// its ClientHello, before any work for it, with a fatal no_renegotiation
// alert. hook->refused, when set, hears of it first, from inside OpenSSL
// (in the read that brought the ClientHello), while the connection can still
// write under its keys: HTTP/2 owes a GOAWAY before the close (RFC 9113 9.2.1).
typedef struct tls_renegotiation_hook {
    void (*refused)(SSL *ssl);
} tls_renegotiation_hook;
void tls_context_on_renegotiation(SSL_CTX *ctx, const tls_renegotiation_hook *hook);

#endif
