#define _GNU_SOURCE  // pthread_setname_np
#include "tpm_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// tpm2-tss's handle type and the few handle values used (tss2_esys.h).
typedef uint32_t ESYS_TR;
#define ESYS_TR_NONE 0xfffU
#define ESYS_TR_PASSWORD 0x0ffU
#define ESYS_TR_RH_OWNER 0x101U
#define TPM2_CAP_TPM_PROPERTIES 0x00000006U
// TSS2_BASE_RC_BAD_REFERENCE in the ESAPI layer (7 << 16 | 5): a bad argument.
#define SESAME_TSS_BAD_REFERENCE 0x00070005U

// Every TSS structure is an opaque, generously sized, aligned buffer: the
// largest one used (TPM2B_PRIVATE, TPM2B_PUBLIC with an RSA-4096 unique)
// is well under 2 KiB.
typedef union {
    long double alignment;
    uint8_t bytes[4096];
} opaque;

static struct {
    // libtss2-tctildr
    uint32_t (*tctildr_initialize)(const char *, void **);
    void (*tctildr_finalize)(void **);
    // libtss2-esys
    uint32_t (*initialize)(void **, void *, void *);
    void (*finalize)(void **);
    void (*free)(void *);
    uint32_t (*tr_set_auth)(void *, ESYS_TR, const void *);
    uint32_t (*create_primary)(void *, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR, const void *, const void *, const void *,
                               const void *, ESYS_TR *, void **, void **, void **, void **);
    uint32_t (*create)(void *, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR, const void *, const void *, const void *,
                       const void *, void **, void **, void **, void **, void **);
    uint32_t (*load)(void *, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR, const void *, const void *, ESYS_TR *);
    uint32_t (*unseal)(void *, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR, void **);
    uint32_t (*flush_context)(void *, ESYS_TR);
    uint32_t (*get_capability)(void *, ESYS_TR, ESYS_TR, ESYS_TR, uint32_t, uint32_t, uint32_t, uint8_t *, void **);
    uint32_t (*start_auth_session)(void *, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR, const void *, uint8_t, const void *,
                                   uint16_t, ESYS_TR *);
    uint32_t (*session_set_attributes)(void *, ESYS_TR, uint8_t, uint8_t);
    // libtss2-mu
    uint32_t (*public_unmarshal)(const uint8_t *, size_t, size_t *, void *);
    uint32_t (*public_marshal)(const void *, uint8_t *, size_t, size_t *);
    uint32_t (*private_unmarshal)(const uint8_t *, size_t, size_t *, void *);
    uint32_t (*private_marshal)(const void *, uint8_t *, size_t, size_t *);
    uint32_t (*sensitive_create_unmarshal)(const uint8_t *, size_t, size_t *, void *);
    uint32_t (*digest_unmarshal)(const uint8_t *, size_t, size_t *, void *);  // TPM2B_AUTH is a TPM2B_DIGEST
    uint32_t (*sensitive_data_marshal)(const void *, uint8_t *, size_t, size_t *);
    uint32_t (*capability_marshal)(const void *, uint8_t *, size_t, size_t *);
    uint32_t (*sym_def_unmarshal)(const uint8_t *, size_t, size_t *, void *);
    // libtss2-rc (optional: only for messages)
    const char *(*decode)(uint32_t);
} tss;

struct sesame_tpm {
    void *tcti;
    void *esys;
};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_result = -1;
static char load_error[512] = "libtss2 was not loaded";

#define SESAME_BIND(handle, library, field, symbol)                                          \
    do {                                                                                     \
        *(void **)(&tss.field) = dlsym(handle, symbol);                                      \
        if (!tss.field) {                                                                    \
            snprintf(load_error, sizeof load_error, "%s has no %s", library, symbol);       \
            return;                                                                          \
        }                                                                                    \
    } while (0)

static void *open_library(const char *name) {
    void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : name);
    }
    return handle;
}

static void load_libraries(void) {
    // tpm2-tss logs every failed TCTI probe to stderr; Sesame reports
    // failures itself. A TSS2_LOG the user set is kept.
    setenv("TSS2_LOG", "all+NONE", 0);
    // Never closed: contexts may outlive any one caller.
    void *tctildr = open_library("libtss2-tctildr.so.0");
    if (!tctildr) return;
    void *esys = open_library("libtss2-esys.so.0");
    if (!esys) return;
    void *mu = open_library("libtss2-mu.so.0");
    if (!mu) return;
    SESAME_BIND(tctildr, "libtss2-tctildr.so.0", tctildr_initialize, "Tss2_TctiLdr_Initialize");
    SESAME_BIND(tctildr, "libtss2-tctildr.so.0", tctildr_finalize, "Tss2_TctiLdr_Finalize");
    SESAME_BIND(esys, "libtss2-esys.so.0", initialize, "Esys_Initialize");
    SESAME_BIND(esys, "libtss2-esys.so.0", finalize, "Esys_Finalize");
    SESAME_BIND(esys, "libtss2-esys.so.0", free, "Esys_Free");
    SESAME_BIND(esys, "libtss2-esys.so.0", tr_set_auth, "Esys_TR_SetAuth");
    SESAME_BIND(esys, "libtss2-esys.so.0", create_primary, "Esys_CreatePrimary");
    SESAME_BIND(esys, "libtss2-esys.so.0", create, "Esys_Create");
    SESAME_BIND(esys, "libtss2-esys.so.0", load, "Esys_Load");
    SESAME_BIND(esys, "libtss2-esys.so.0", unseal, "Esys_Unseal");
    SESAME_BIND(esys, "libtss2-esys.so.0", flush_context, "Esys_FlushContext");
    SESAME_BIND(esys, "libtss2-esys.so.0", get_capability, "Esys_GetCapability");
    SESAME_BIND(esys, "libtss2-esys.so.0", start_auth_session, "Esys_StartAuthSession");
    SESAME_BIND(esys, "libtss2-esys.so.0", session_set_attributes, "Esys_TRSess_SetAttributes");
    SESAME_BIND(mu, "libtss2-mu.so.0", public_unmarshal, "Tss2_MU_TPM2B_PUBLIC_Unmarshal");
    SESAME_BIND(mu, "libtss2-mu.so.0", public_marshal, "Tss2_MU_TPM2B_PUBLIC_Marshal");
    SESAME_BIND(mu, "libtss2-mu.so.0", private_unmarshal, "Tss2_MU_TPM2B_PRIVATE_Unmarshal");
    SESAME_BIND(mu, "libtss2-mu.so.0", private_marshal, "Tss2_MU_TPM2B_PRIVATE_Marshal");
    SESAME_BIND(mu, "libtss2-mu.so.0", sensitive_create_unmarshal, "Tss2_MU_TPM2B_SENSITIVE_CREATE_Unmarshal");
    SESAME_BIND(mu, "libtss2-mu.so.0", digest_unmarshal, "Tss2_MU_TPM2B_DIGEST_Unmarshal");
    SESAME_BIND(mu, "libtss2-mu.so.0", sensitive_data_marshal, "Tss2_MU_TPM2B_SENSITIVE_DATA_Marshal");
    SESAME_BIND(mu, "libtss2-mu.so.0", capability_marshal, "Tss2_MU_TPMS_CAPABILITY_DATA_Marshal");
    SESAME_BIND(mu, "libtss2-mu.so.0", sym_def_unmarshal, "Tss2_MU_TPMT_SYM_DEF_Unmarshal");
    void *rc = dlopen("libtss2-rc.so.0", RTLD_NOW | RTLD_LOCAL);
    if (rc) *(void **)(&tss.decode) = dlsym(rc, "Tss2_RC_Decode");
    load_result = 0;
}

sesame_tpm *sesame_tpm_open(const char *tcti, int *reason, char *error, size_t error_size) {
    if (error_size > 0) error[0] = '\0';
    pthread_once(&load_once, load_libraries);
    if (load_result != 0) {
        *reason = SESAME_TPM_OPEN_LIBRARY;
        snprintf(error, error_size, "%s", load_error);
        return NULL;
    }
    sesame_tpm *tpm = calloc(1, sizeof *tpm);
    if (!tpm) {
        *reason = SESAME_TPM_OPEN_ESYS;
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    uint32_t rc = tss.tctildr_initialize(tcti, &tpm->tcti);
    if (rc != 0) {
        *reason = SESAME_TPM_OPEN_TCTI;
        snprintf(error, error_size, "%s", tss.decode ? tss.decode(rc) : "TCTI initialization failed");
        free(tpm);
        return NULL;
    }
    rc = tss.initialize(&tpm->esys, tpm->tcti, NULL);
    if (rc != 0) {
        *reason = SESAME_TPM_OPEN_ESYS;
        snprintf(error, error_size, "%s", tss.decode ? tss.decode(rc) : "Esys_Initialize failed");
        tss.tctildr_finalize(&tpm->tcti);
        free(tpm);
        return NULL;
    }
    return tpm;
}

void sesame_tpm_close(sesame_tpm *tpm) {
    if (!tpm) return;
    tss.finalize(&tpm->esys);
    tss.tctildr_finalize(&tpm->tcti);
    free(tpm);
}

// Unmarshals exactly `size` bytes, or fails.
static uint32_t unmarshal(uint32_t (*function)(const uint8_t *, size_t, size_t *, void *), const uint8_t *bytes,
                          size_t size, opaque *destination) {
    // Union arms the bytes do not select are left as they are: zero, not stack garbage.
    memset(destination, 0, sizeof *destination);
    size_t offset = 0;
    uint32_t rc = function(bytes, size, &offset, destination);
    if (rc == 0 && offset != size) return SESAME_TSS_BAD_REFERENCE;
    return rc;
}

static uint32_t create_primary(sesame_tpm *tpm, const uint8_t *primary, size_t primary_size, ESYS_TR *handle) {
    static opaque zero;  // an empty TPM2B_SENSITIVE_CREATE, TPM2B_DATA, TPML_PCR_SELECTION
    opaque template;
    uint32_t rc = unmarshal(tss.public_unmarshal, primary, primary_size, &template);
    if (rc != 0) return rc;
    return tss.create_primary(tpm->esys, ESYS_TR_RH_OWNER, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, &zero,
                              &template, &zero, &zero, handle, NULL, NULL, NULL, NULL);
}

// An HMAC session salted with the primary key, whose commands and responses
// have their first parameter AES-128-CFB encrypted: the sealed data, its
// authValue (proved by HMAC, never sent) and the unsealed key never cross
// the bus between CPU and TPM in the clear.
static uint32_t start_session(sesame_tpm *tpm, ESYS_TR salt_key, ESYS_TR *session) {
    // TPMT_SYM_DEF on the wire: TPM_ALG_AES, 128 bits, TPM_ALG_CFB.
    static const uint8_t aes128cfb[] = {0x00, 0x06, 0x00, 0x80, 0x00, 0x43};
    opaque symmetric;
    uint32_t rc = unmarshal(tss.sym_def_unmarshal, aes128cfb, sizeof aes128cfb, &symmetric);
    if (rc != 0) return rc;
    rc = tss.start_auth_session(tpm->esys, salt_key, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, NULL,
                                0x00 /* TPM2_SE_HMAC */, &symmetric, 0x000B /* SHA-256 */, session);
    if (rc != 0) return rc;
    // TPMA_SESSION continueSession | decrypt | encrypt.
    const uint8_t attributes = 0x01 | 0x20 | 0x40;
    rc = tss.session_set_attributes(tpm->esys, *session, attributes, 0xFF);
    if (rc != 0) tss.flush_context(tpm->esys, *session);
    return rc;
}

uint32_t sesame_tpm_create(sesame_tpm *tpm, const uint8_t *primary, size_t primary_size,
                           const uint8_t *sensitive, size_t sensitive_size,
                           const uint8_t *child, size_t child_size,
                           uint8_t *out_public, size_t out_public_capacity, size_t *out_public_size,
                           uint8_t *out_private, size_t out_private_capacity, size_t *out_private_size,
                           int *step) {
    static opaque zero;
    *step = SESAME_TPM_STEP_PRIMARY;
    ESYS_TR parent = ESYS_TR_NONE;
    uint32_t rc = create_primary(tpm, primary, primary_size, &parent);
    if (rc != 0) return rc;
    opaque secret, template;
    void *created_private = NULL, *created_public = NULL;
    *step = SESAME_TPM_STEP_LOAD;
    ESYS_TR session = ESYS_TR_NONE;
    rc = unmarshal(tss.sensitive_create_unmarshal, sensitive, sensitive_size, &secret);
    if (rc == 0) rc = unmarshal(tss.public_unmarshal, child, child_size, &template);
    if (rc == 0) {
        *step = SESAME_TPM_STEP_SESSION;
        rc = start_session(tpm, parent, &session);
    }
    if (rc == 0) {
        *step = SESAME_TPM_STEP_LOAD;
        rc = tss.create(tpm->esys, parent, session, ESYS_TR_NONE, ESYS_TR_NONE, &secret, &template, &zero,
                        &zero, &created_private, &created_public, NULL, NULL, NULL);
        tss.flush_context(tpm->esys, session);
    }
    explicit_bzero(&secret, sizeof secret);
    tss.flush_context(tpm->esys, parent);
    if (rc != 0) return rc;
    *step = SESAME_TPM_STEP_MARSHAL;
    *out_public_size = 0;
    *out_private_size = 0;
    rc = tss.public_marshal(created_public, out_public, out_public_capacity, out_public_size);
    if (rc == 0) rc = tss.private_marshal(created_private, out_private, out_private_capacity, out_private_size);
    tss.free(created_public);
    tss.free(created_private);
    return rc;
}

uint32_t sesame_tpm_unseal(sesame_tpm *tpm, const uint8_t *primary, size_t primary_size,
                           const uint8_t *public_blob, size_t public_size,
                           const uint8_t *private_blob, size_t private_size,
                           const uint8_t *auth, size_t auth_size,
                           uint8_t *out, size_t out_capacity, size_t *out_size, int *step) {
    *step = SESAME_TPM_STEP_LOAD;
    opaque public_area, private_area, auth_value;
    uint32_t rc = unmarshal(tss.public_unmarshal, public_blob, public_size, &public_area);
    if (rc == 0) rc = unmarshal(tss.private_unmarshal, private_blob, private_size, &private_area);
    if (rc == 0) {
        // TPM2B_AUTH on the wire: a big-endian size, then the bytes.
        uint8_t wire[2 + 64];
        if (auth_size > 64) return SESAME_TSS_BAD_REFERENCE;
        wire[0] = (uint8_t)(auth_size >> 8);
        wire[1] = (uint8_t)auth_size;
        if (auth_size > 0) memcpy(wire + 2, auth, auth_size);
        rc = unmarshal(tss.digest_unmarshal, wire, 2 + auth_size, &auth_value);
        explicit_bzero(wire, sizeof wire);
    }
    if (rc != 0) return rc;
    *step = SESAME_TPM_STEP_PRIMARY;
    ESYS_TR parent = ESYS_TR_NONE;
    rc = create_primary(tpm, primary, primary_size, &parent);
    if (rc != 0) {
        explicit_bzero(&auth_value, sizeof auth_value);
        return rc;
    }
    *step = SESAME_TPM_STEP_LOAD;
    ESYS_TR object = ESYS_TR_NONE;
    rc = tss.load(tpm->esys, parent, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, &private_area, &public_area, &object);
    if (rc != 0) {
        tss.flush_context(tpm->esys, parent);
        explicit_bzero(&auth_value, sizeof auth_value);
        return rc;
    }
    *step = SESAME_TPM_STEP_SESSION;
    ESYS_TR session = ESYS_TR_NONE;
    rc = start_session(tpm, parent, &session);
    tss.flush_context(tpm->esys, parent);
    if (rc != 0) {
        tss.flush_context(tpm->esys, object);
        explicit_bzero(&auth_value, sizeof auth_value);
        return rc;
    }
    *step = SESAME_TPM_STEP_UNSEAL;
    void *data = NULL;
    rc = tss.tr_set_auth(tpm->esys, object, &auth_value);
    explicit_bzero(&auth_value, sizeof auth_value);
    if (rc == 0) rc = tss.unseal(tpm->esys, object, session, ESYS_TR_NONE, ESYS_TR_NONE, &data);
    tss.flush_context(tpm->esys, session);
    tss.flush_context(tpm->esys, object);
    if (rc != 0) return rc;
    *step = SESAME_TPM_STEP_MARSHAL;
    *out_size = 0;
    rc = tss.sensitive_data_marshal(data, out, out_capacity, out_size);
    // TPM2B_SENSITIVE_DATA: a 2-byte size and at most 128 bytes (MAX_SYM_DATA).
    explicit_bzero(data, 2 + 128);
    tss.free(data);
    return rc;
}

uint32_t sesame_tpm_properties(sesame_tpm *tpm, uint32_t first, uint32_t count,
                               uint8_t *out, size_t out_capacity, size_t *out_size) {
    uint8_t more = 0;
    void *data = NULL;
    uint32_t rc = tss.get_capability(tpm->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, TPM2_CAP_TPM_PROPERTIES,
                                     first, count, &more, &data);
    if (rc != 0) return rc;
    *out_size = 0;
    rc = tss.capability_marshal(data, out, out_capacity, out_size);
    tss.free(data);
    return rc;
}

const char *sesame_tpm_describe(uint32_t rc) {
    pthread_once(&load_once, load_libraries);
    return tss.decode ? tss.decode(rc) : NULL;
}

