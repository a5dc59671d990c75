#ifndef SHADE_COPENSSL_TLS_SHIM_H
#define SHADE_COPENSSL_TLS_SHIM_H
// TLS-side re-exports of OpenSSL macros (SSL_CTX_set_* and friends): function-like macros do not
// import into Swift, so each one Shade uses is a static inline function here.

static inline long shade_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return SSL_CTX_set_min_proto_version(ctx, version);
}

static inline long shade_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_mode(ctx, mode);
}

static inline long shade_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}

#endif
