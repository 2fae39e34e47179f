#ifndef SESAME_PAM_SHIM_H
#define SESAME_PAM_SHIM_H
// libpam, loaded at run time with dlopen. The ABI below is declared here
// rather than taken from <security/pam_appl.h> so that building Sesame needs
// no libpam0g-dev; the values are Linux-PAM's (checked against its headers
// on x86_64, see the PAM notes in ARCHITECTURE.md).

#include <stddef.h>

// Return codes Sesame tells apart.
#define SESAME_PAM_SUCCESS 0
#define SESAME_PAM_OPEN_ERR 1
#define SESAME_PAM_SYMBOL_ERR 2
#define SESAME_PAM_SERVICE_ERR 3
#define SESAME_PAM_SYSTEM_ERR 4
#define SESAME_PAM_BUF_ERR 5
#define SESAME_PAM_PERM_DENIED 6
#define SESAME_PAM_AUTH_ERR 7
#define SESAME_PAM_CRED_INSUFFICIENT 8
#define SESAME_PAM_AUTHINFO_UNAVAIL 9
#define SESAME_PAM_USER_UNKNOWN 10
#define SESAME_PAM_MAXTRIES 11
#define SESAME_PAM_NEW_AUTHTOK_REQD 12
#define SESAME_PAM_ACCT_EXPIRED 13
#define SESAME_PAM_CONV_ERR 19
#define SESAME_PAM_AUTHTOK_ERR 20
#define SESAME_PAM_ABORT 26
#define SESAME_PAM_AUTHTOK_EXPIRED 27
#define SESAME_PAM_MODULE_UNKNOWN 28

// Message styles of the conversation.
#define SESAME_PAM_PROMPT_ECHO_OFF 1
#define SESAME_PAM_PROMPT_ECHO_ON 2
#define SESAME_PAM_ERROR_MSG 3
#define SESAME_PAM_TEXT_INFO 4

// PAM refuses longer answers; pam_get_authtok truncates at this size.
#define SESAME_PAM_MAX_RESP_SIZE 512

typedef struct sesame_pam_handle sesame_pam_handle;   // pam_handle_t, opaque

typedef struct sesame_pam_message {
    int msg_style;
    const char *msg;
} sesame_pam_message;

typedef struct sesame_pam_response {
    char *resp;          // malloc'ed: PAM frees it
    int resp_retcode;    // unused by Linux-PAM, must be 0
} sesame_pam_response;

// Linux-PAM passes `msg` as an array of pointers (msg[i]->msg_style).
typedef int (*sesame_pam_conv_fn)(int num_msg, const sesame_pam_message **msg,
                                  sesame_pam_response **resp, void *appdata_ptr);

typedef struct sesame_pam_conv {
    sesame_pam_conv_fn conv;
    void *appdata_ptr;
} sesame_pam_conv;

// The resolved entry points of one loaded libpam. Never closed: a process
// that used PAM once is likely to use it again, and modules PAM loaded may
// still reference it.
typedef struct sesame_pam_library sesame_pam_library;

// Opens `soname` and resolves the entry points Sesame needs.
// Returns NULL when the library or a required symbol is missing, with the
// dlerror text in `error`.
sesame_pam_library *sesame_pam_open(const char *soname, char *error, size_t error_size);

// Whether pam_start_confdir exists (Linux-PAM >= 1.4).
int sesame_pam_has_confdir(const sesame_pam_library *lib);

// pam_start, or pam_start_confdir when `confdir` is not NULL (returns
// SESAME_PAM_SYMBOL_ERR when that is unavailable).
int sesame_pam_start(const sesame_pam_library *lib, const char *service, const char *user,
                     const sesame_pam_conv *conv, const char *confdir, sesame_pam_handle **pamh);

// Replaces PAM's randomised ~2 s failure delay with nothing: Sesame applies
// its own, persistent back-off.
int sesame_pam_disable_fail_delay(const sesame_pam_library *lib, sesame_pam_handle *pamh);

int sesame_pam_authenticate(const sesame_pam_library *lib, sesame_pam_handle *pamh, int flags);
int sesame_pam_acct_mgmt(const sesame_pam_library *lib, sesame_pam_handle *pamh, int flags);
int sesame_pam_end(const sesame_pam_library *lib, sesame_pam_handle *pamh, int status);

// Never NULL. `pamh` may be NULL.
const char *sesame_pam_strerror(const sesame_pam_library *lib, sesame_pam_handle *pamh, int errnum);

#endif
