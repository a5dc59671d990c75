#ifndef SHADE_COPENSSL_CRYPTO_SHIM_H
#define SHADE_COPENSSL_CRYPTO_SHIM_H
// Cryptography-side re-exports of OpenSSL macros (EVP, EC, HKDF, AES-GCM): Swift imports neither
// function-like macros nor macros built from other macros, so each is restated here once.

// OSSL_PARAM_BLD: the parameter lists EVP_PKEY_fromdata and EVP_KDF_derive take.
#include <openssl/param_build.h>

// EVP_PKEY_fromdata selections: a key pair (P-256 receiver keys) or a public key alone (a sender's).
static inline int shade_EVP_PKEY_KEYPAIR(void) { return EVP_PKEY_KEYPAIR; }
static inline int shade_EVP_PKEY_PUBLIC_KEY(void) { return EVP_PKEY_PUBLIC_KEY; }

// AES-GCM's authentication tag is handed to the cipher before the final step of decryption.
static inline int shade_EVP_CTRL_GCM_SET_TAG(void) { return EVP_CTRL_GCM_SET_TAG; }
#endif
