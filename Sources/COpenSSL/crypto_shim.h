#ifndef SHADE_COPENSSL_CRYPTO_SHIM_H
#define SHADE_COPENSSL_CRYPTO_SHIM_H
// Cryptography-side re-exports of OpenSSL macros (EVP, EC, HKDF, AES-GCM).
#endif
