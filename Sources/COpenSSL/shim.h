#ifndef SHADE_COPENSSL_SHIM_H
#define SHADE_COPENSSL_SHIM_H
// OpenSSL (Debian libssl-dev): TLS for the listening port and the CONNECT proxy, and the
// cryptography of the local CA, Web Push decryption and VAPID/JWT checks.
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/kdf.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
// Function-like macros do not import into Swift: each area re-exports what it needs in its own
// header, so TLS and Web Push work never edit the same file.
#include "tls_shim.h"
#include "crypto_shim.h"
#endif
