#ifndef CSESAMELINUX_H
#define CSESAMELINUX_H
// Nothing here is linked at build time: libsystemd and libpam are opened with
// dlopen at run time, so `swift build` needs no -dev package and a machine
// without them still runs Sesame (the backend reports itself unavailable).
#include "sdbus_shim.h"
// Serving on the bus: the Secret Service (SesameLinux/DBus).
#include "sdbus_server_shim.h"
#include "pam_shim.h"
// The kernel keyring is reached by raw system calls: no library at all.
#include "kernel_keyring_shim.h"
// tpm2-tss (the TPM as the device key store), opened with dlopen like libpam.
#include "tpm_shim.h"
// OpenSSL's libcrypto, opened with dlopen: constant-time modular exponentiation
// for the Secret Service's Diffie-Hellman session (swift-crypto has none).
#include "libcrypto_shim.h"
// Writing to a descriptor a client passed (the Secret portal), SIGPIPE-safe.
#include "descriptor_write.h"
#endif
