#ifndef SESAME_LIBCRYPTO_SHIM_H
#define SESAME_LIBCRYPTO_SHIM_H

#include <stddef.h>
#include <stdint.h>

/// Opens OpenSSL's libcrypto (libcrypto.so.3, else .so.1.1) once per process
/// and resolves the BIGNUM calls used below. Returns 1 when it is usable;
/// otherwise 0 and the reason in `error`. Safe to call from any thread.
int sesame_libcrypto_available(char *error, size_t error_size);

/// out = base^exponent mod modulus with BN_mod_exp_mont_consttime: Montgomery
/// form and a running time that does not depend on the exponent's bits. All
/// numbers are unsigned big-endian; `out` receives `out_size` bytes, left-padded
/// with zeros. The modulus must be odd. Returns 0, or -1 when libcrypto is
/// missing or a call failed (the output is then zeroed). Every intermediate
/// value is cleared before it is freed.
int sesame_libcrypto_mod_exp(const uint8_t *base, size_t base_size,
                             const uint8_t *exponent, size_t exponent_size,
                             const uint8_t *modulus, size_t modulus_size,
                             uint8_t *out, size_t out_size);

#endif
