#ifndef SESAME_KERNEL_KEYRING_SHIM_H
#define SESAME_KERNEL_KEYRING_SHIM_H
// The kernel key retention service (add_key, keyctl), called as raw system
// calls: they need no library (libkeyutils) and no -dev package. Every
// function returns a negative errno on failure, so callers never race on
// errno. ENOSYS, EPERM or EACCES from the probe mean the keyring is blocked,
// as seccomp filters in containers do.

#include <stddef.h>
#include <stdint.h>

// Whether this process may use its user keyring: 0, or a negative errno.
long sesame_kernel_keyring_probe(void);

// Adds (or replaces) a "user" key with this description in the user keyring,
// readable and writable by its possessor and its user only, which the
// kernel removes by itself after `timeout_seconds`. Returns the key id.
long sesame_kernel_keyring_set(const char *description, const void *payload, size_t length, unsigned timeout_seconds);

// The id of the "user" key with this description in the user keyring;
// -ENOKEY when there is none, -EKEYEXPIRED or -EKEYREVOKED when it is gone.
long sesame_kernel_keyring_find(const char *description);

// Copies up to `length` bytes of the key's payload into `buffer`; returns the
// payload's full length (which may exceed `length`).
long sesame_kernel_keyring_read(long key, void *buffer, size_t length);

// Removes the key at once from every keyring (invalidate; unlink from the
// user keyring on kernels without it). Returns 0.
long sesame_kernel_keyring_remove(long key);

// CLOCK_BOOTTIME in nanoseconds: never set back, counts suspended time, and
// restarts at boot, like the keyring itself. 0 when unreadable.
uint64_t sesame_boottime_nanoseconds(void);

#endif
