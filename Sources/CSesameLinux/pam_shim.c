#define _GNU_SOURCE  // pthread_setname_np
#include "pam_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SESAME_PAM_FAIL_DELAY_ITEM 10

typedef int (*start_fn)(const char *, const char *, const sesame_pam_conv *, sesame_pam_handle **);
typedef int (*start_confdir_fn)(const char *, const char *, const sesame_pam_conv *, const char *,
                                sesame_pam_handle **);
typedef int (*handle_int_fn)(sesame_pam_handle *, int);
typedef int (*set_item_fn)(sesame_pam_handle *, int, const void *);
typedef const char *(*strerror_fn)(sesame_pam_handle *, int);

struct sesame_pam_library {
    void *handle;
    start_fn start;
    start_confdir_fn start_confdir;   // NULL before Linux-PAM 1.4
    handle_int_fn authenticate;
    handle_int_fn acct_mgmt;
    handle_int_fn end;
    set_item_fn set_item;
    strerror_fn strerror;
};

static void *resolve(void *handle, const char *name, int *missing, char *error, size_t error_size) {
    void *symbol = dlsym(handle, name);
    if (!symbol && !*missing) {
        const char *reason = dlerror();
        snprintf(error, error_size, "%s", reason ? reason : name);
        *missing = 1;
    }
    return symbol;
}

sesame_pam_library *sesame_pam_open(const char *soname, char *error, size_t error_size) {
    if (error_size > 0) error[0] = '\0';
    dlerror();
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(error, error_size, "%s", reason ? reason : "unknown dlopen error");
        return NULL;
    }
    sesame_pam_library *lib = calloc(1, sizeof *lib);
    if (!lib) {
        snprintf(error, error_size, "out of memory");
        dlclose(handle);
        return NULL;
    }
    int missing = 0;
    lib->handle = handle;
    lib->start = (start_fn)resolve(handle, "pam_start", &missing, error, error_size);
    lib->authenticate = (handle_int_fn)resolve(handle, "pam_authenticate", &missing, error, error_size);
    lib->acct_mgmt = (handle_int_fn)resolve(handle, "pam_acct_mgmt", &missing, error, error_size);
    lib->end = (handle_int_fn)resolve(handle, "pam_end", &missing, error, error_size);
    lib->set_item = (set_item_fn)resolve(handle, "pam_set_item", &missing, error, error_size);
    lib->strerror = (strerror_fn)resolve(handle, "pam_strerror", &missing, error, error_size);
    if (missing) {
        dlclose(handle);
        free(lib);
        return NULL;
    }
    lib->start_confdir = (start_confdir_fn)dlsym(handle, "pam_start_confdir");
    dlerror();
    return lib;
}

int sesame_pam_has_confdir(const sesame_pam_library *lib) {
    return lib->start_confdir != NULL;
}

int sesame_pam_start(const sesame_pam_library *lib, const char *service, const char *user,
                     const sesame_pam_conv *conv, const char *confdir, sesame_pam_handle **pamh) {
    if (confdir) {
        if (!lib->start_confdir) return SESAME_PAM_SYMBOL_ERR;
        return lib->start_confdir(service, user, conv, confdir, pamh);
    }
    return lib->start(service, user, conv, pamh);
}

static void no_fail_delay(int retval, unsigned int usec_delay, void *appdata_ptr) {
    (void)retval;
    (void)usec_delay;
    (void)appdata_ptr;
}

int sesame_pam_disable_fail_delay(const sesame_pam_library *lib, sesame_pam_handle *pamh) {
    // ISO C has no cast between function and object pointers; POSIX (dlsym)
    // guarantees they share a representation, and this is PAM's documented API.
    void (*callback)(int, unsigned int, void *) = no_fail_delay;
    const void *item;
    memcpy(&item, &callback, sizeof item);
    return lib->set_item(pamh, SESAME_PAM_FAIL_DELAY_ITEM, item);
}

int sesame_pam_authenticate(const sesame_pam_library *lib, sesame_pam_handle *pamh, int flags) {
    return lib->authenticate(pamh, flags);
}

int sesame_pam_acct_mgmt(const sesame_pam_library *lib, sesame_pam_handle *pamh, int flags) {
    return lib->acct_mgmt(pamh, flags);
}

int sesame_pam_end(const sesame_pam_library *lib, sesame_pam_handle *pamh, int status) {
    return lib->end(pamh, status);
}

const char *sesame_pam_strerror(const sesame_pam_library *lib, sesame_pam_handle *pamh, int errnum) {
    const char *text = lib->strerror(pamh, errnum);
    return text ? text : "unknown PAM error";
}

