#define _GNU_SOURCE  // syscall
#include "kernel_keyring_shim.h"

#include <errno.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// <linux/keyctl.h> values, kept here so that no kernel headers are needed.
#define KEY_SPEC_USER_KEYRING (-4)
#define KEYCTL_GET_KEYRING_ID 0
#define KEYCTL_SETPERM 5
#define KEYCTL_UNLINK 9
#define KEYCTL_SEARCH 10
#define KEYCTL_READ 11
#define KEYCTL_SET_TIMEOUT 15
#define KEYCTL_INVALIDATE 21

// View, read, write, search, set attributes; for the possessor and for
// processes of the same user. Nothing for group and others, and no link, so
// the token cannot be attached to a keyring that others can see.
#define SESAME_KEY_PERMISSIONS 0x2f2f0000u

static long result(long value) {
    return value < 0 ? -errno : value;
}

long sesame_kernel_keyring_probe(void) {
    // Does not create the user keyring: a missing one (ENOKEY) still means
    // the service works, and add_key creates it.
    long value = syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 0);
    return value < 0 && errno != ENOKEY ? -errno : 0;
}

long sesame_kernel_keyring_set(const char *description, const void *payload, size_t length, unsigned timeout_seconds) {
    long key = syscall(SYS_add_key, "user", description, payload, length, KEY_SPEC_USER_KEYRING);
    if (key < 0) return -errno;
    // Replacing a key keeps its old expiry: set it every time. A key that
    // cannot expire or cannot be restricted is not left behind.
    if (syscall(SYS_keyctl, KEYCTL_SET_TIMEOUT, key, timeout_seconds) < 0 ||
        syscall(SYS_keyctl, KEYCTL_SETPERM, key, SESAME_KEY_PERMISSIONS) < 0) {
        long error = -errno;
        sesame_kernel_keyring_remove(key);
        return error;
    }
    return key;
}

long sesame_kernel_keyring_find(const char *description) {
    return result(syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user", description, 0));
}

long sesame_kernel_keyring_read(long key, void *buffer, size_t length) {
    return result(syscall(SYS_keyctl, KEYCTL_READ, key, buffer, length));
}

long sesame_kernel_keyring_remove(long key) {
    if (syscall(SYS_keyctl, KEYCTL_INVALIDATE, key) == 0) return 0;
    if (errno != EOPNOTSUPP && errno != EINVAL) return -errno;
    return result(syscall(SYS_keyctl, KEYCTL_UNLINK, key, KEY_SPEC_USER_KEYRING));
}

uint64_t sesame_boottime_nanoseconds(void) {
    struct timespec now;
    if (clock_gettime(CLOCK_BOOTTIME, &now) != 0) return 0;
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}
