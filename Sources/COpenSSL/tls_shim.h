#ifndef SHADE_COPENSSL_TLS_SHIM_H
#define SHADE_COPENSSL_TLS_SHIM_H
// TLS-side re-exports of OpenSSL macros (SSL_CTX_set_* and friends).
#endif
