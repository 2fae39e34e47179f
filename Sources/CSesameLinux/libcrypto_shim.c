#include "libcrypto_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// OpenSSL's BIGNUM API (stable since 1.1.0), declared here so that no
// libssl-dev header is needed to build: every pointer is opaque.
typedef void *(*bn_new_fn)(void);
typedef void (*bn_free_fn)(void *);
typedef void *(*bn_bin2bn_fn)(const unsigned char *, int, void *);
typedef int (*bn_bn2binpad_fn)(const void *, unsigned char *, int);
typedef void *(*bn_ctx_new_fn)(void);
typedef void (*bn_ctx_free_fn)(void *);
typedef int (*bn_mod_exp_fn)(void *, const void *, const void *, const void *, void *, void *);

static struct {
    int usable;
    char error[256];
    bn_new_fn bn_new;
    bn_free_fn bn_clear_free;
    bn_bin2bn_fn bn_bin2bn;
    bn_bn2binpad_fn bn_bn2binpad;
    bn_ctx_new_fn ctx_new;
    bn_ctx_free_fn ctx_free;
    bn_mod_exp_fn mod_exp_consttime;
} library;

static pthread_once_t library_once = PTHREAD_ONCE_INIT;

static void open_library(void) {
    static const char *const sonames[] = {"libcrypto.so.3", "libcrypto.so.1.1"};
    void *handle = NULL;
    for (size_t index = 0; index < sizeof sonames / sizeof *sonames && !handle; index++) {
        dlerror();
        handle = dlopen(sonames[index], RTLD_NOW | RTLD_LOCAL);
    }
    if (!handle) {
        const char *reason = dlerror();
        snprintf(library.error, sizeof library.error, "%s", reason ? reason : "libcrypto.so.3 not found");
        return;
    }
    library.bn_new = (bn_new_fn)dlsym(handle, "BN_new");
    library.bn_clear_free = (bn_free_fn)dlsym(handle, "BN_clear_free");
    library.bn_bin2bn = (bn_bin2bn_fn)dlsym(handle, "BN_bin2bn");
    library.bn_bn2binpad = (bn_bn2binpad_fn)dlsym(handle, "BN_bn2binpad");
    library.ctx_new = (bn_ctx_new_fn)dlsym(handle, "BN_CTX_new");
    library.ctx_free = (bn_ctx_free_fn)dlsym(handle, "BN_CTX_free");
    library.mod_exp_consttime = (bn_mod_exp_fn)dlsym(handle, "BN_mod_exp_mont_consttime");
    if (!library.bn_new || !library.bn_clear_free || !library.bn_bin2bn || !library.bn_bn2binpad ||
        !library.ctx_new || !library.ctx_free || !library.mod_exp_consttime) {
        snprintf(library.error, sizeof library.error, "libcrypto lacks the BIGNUM calls Sesame uses");
        // Kept open: symbols already resolved must stay valid, and a library
        // opened once per process is not worth unloading.
        return;
    }
    library.usable = 1;
}

int sesame_libcrypto_available(char *error, size_t error_size) {
    pthread_once(&library_once, open_library);
    if (!library.usable && error && error_size > 0) snprintf(error, error_size, "%s", library.error);
    return library.usable;
}

int sesame_libcrypto_mod_exp(const uint8_t *base, size_t base_size,
                             const uint8_t *exponent, size_t exponent_size,
                             const uint8_t *modulus, size_t modulus_size,
                             uint8_t *out, size_t out_size) {
    if (out && out_size > 0) memset(out, 0, out_size);
    if (!sesame_libcrypto_available(NULL, 0)) return -1;
    if (base_size > 4096 || exponent_size > 4096 || modulus_size > 4096 || out_size > 4096) return -1;
    void *context = library.ctx_new();
    void *a = library.bn_bin2bn(base, (int)base_size, NULL);
    void *p = library.bn_bin2bn(exponent, (int)exponent_size, NULL);
    void *m = library.bn_bin2bn(modulus, (int)modulus_size, NULL);
    void *r = library.bn_new();
    int status = -1;
    if (context && a && p && m && r && library.mod_exp_consttime(r, a, p, m, context, NULL) == 1 &&
        library.bn_bn2binpad(r, out, (int)out_size) == (int)out_size) {
        status = 0;
    } else if (out && out_size > 0) {
        memset(out, 0, out_size);
    }
    // BN_clear_free(NULL) and BN_CTX_free(NULL) do nothing.
    library.bn_clear_free(r);
    library.bn_clear_free(m);
    library.bn_clear_free(p);
    library.bn_clear_free(a);
    library.ctx_free(context);
    return status;
}
