#ifndef SESAME_TPM_SHIM_H
#define SESAME_TPM_SHIM_H
// tpm2-tss (ESAPI, MU, TCTI loader), loaded at run time with dlopen so that
// building Sesame needs no libtss2-dev. Every TSS structure stays opaque on
// this side: inputs arrive as TPM 2.0 wire-format bytes (TCG TPM 2.0 Part 2
// marshalling), are unmarshalled by libtss2-mu into generously sized buffers,
// and outputs leave marshalled again. Only the functions below are declared.

#include <stddef.h>
#include <stdint.h>

// Why sesame_tpm_open failed.
#define SESAME_TPM_OPEN_LIBRARY 1   // a libtss2 library or symbol is missing
#define SESAME_TPM_OPEN_TCTI 2      // the TCTI (device or simulator) did not answer
#define SESAME_TPM_OPEN_ESYS 3      // Esys_Initialize failed

// Which step of an unseal failed.
#define SESAME_TPM_STEP_PRIMARY 1
#define SESAME_TPM_STEP_LOAD 2
#define SESAME_TPM_STEP_UNSEAL 3
#define SESAME_TPM_STEP_MARSHAL 4
#define SESAME_TPM_STEP_SESSION 5

typedef struct sesame_tpm sesame_tpm;

// Connects to the TPM behind `tcti` (a tpm2-tss TCTI string). NULL on
// failure, with `*reason` one of SESAME_TPM_OPEN_* and `error` filled.
sesame_tpm *sesame_tpm_open(const char *tcti, int *reason, char *error, size_t error_size);
void sesame_tpm_close(sesame_tpm *tpm);

// Every command that carries a secret (Create, Unseal) runs in an HMAC
// session salted with the primary and encrypting its first parameter.
//
// Creates the primary from `primary` (a marshalled TPM2B_PUBLIC) under the
// owner hierarchy, then a child from `sensitive` (TPM2B_SENSITIVE_CREATE) and
// `child` (TPM2B_PUBLIC) under it; writes the child's marshalled TPM2B_PUBLIC
// and TPM2B_PRIVATE. Returns the TSS2_RC (0 on success); `*step` says which
// step failed.
uint32_t sesame_tpm_create(sesame_tpm *tpm, const uint8_t *primary, size_t primary_size,
                           const uint8_t *sensitive, size_t sensitive_size,
                           const uint8_t *child, size_t child_size,
                           uint8_t *out_public, size_t out_public_capacity, size_t *out_public_size,
                           uint8_t *out_private, size_t out_private_capacity, size_t *out_private_size,
                           int *step);

// Creates the primary, loads the sealed object (marshalled TPM2B_PUBLIC and
// TPM2B_PRIVATE) under it, unseals it with `auth` (may be empty) and flushes
// both. Returns the TSS2_RC; `*step` says which step failed.
uint32_t sesame_tpm_unseal(sesame_tpm *tpm, const uint8_t *primary, size_t primary_size,
                           const uint8_t *public_blob, size_t public_size,
                           const uint8_t *private_blob, size_t private_size,
                           const uint8_t *auth, size_t auth_size,
                           uint8_t *out, size_t out_capacity, size_t *out_size, int *step);

// TPM2_GetCapability(TPM_CAP_TPM_PROPERTIES, first, count) marshalled as
// TPMS_CAPABILITY_DATA. Returns the TSS2_RC.
uint32_t sesame_tpm_properties(sesame_tpm *tpm, uint32_t first, uint32_t count,
                               uint8_t *out, size_t out_capacity, size_t *out_size);

// libtss2-rc's text for a response code, or NULL when libtss2-rc is missing.
const char *sesame_tpm_describe(uint32_t rc);


#endif
