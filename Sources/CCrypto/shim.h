#ifndef WAVEDIAL_CCRYPTO_SHIM_H
#define WAVEDIAL_CCRYPTO_SHIM_H
// OpenSSL's libcrypto, for HLS's AES-128 segments: the EVP cipher interface and its error queue.
// Both are plain functions Swift calls directly; nothing to wrap.
#include <openssl/evp.h>
#include <openssl/err.h>
#endif
