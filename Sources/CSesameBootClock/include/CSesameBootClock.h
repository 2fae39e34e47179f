#ifndef CSESAME_BOOT_CLOCK_H
#define CSESAME_BOOT_CLOCK_H

#include <stdint.h>

/// Reads the kernel's boot id (36 characters of text, NUL-terminated, into
/// `boot_id`) and the seconds since boot counting suspend (CLOCK_BOOTTIME on
/// Linux), straight from the kernel where the architecture allows it (raw
/// system calls: an LD_PRELOAD library that answers clock_gettime, open or
/// read is not asked). Returns 0 on success, -1 when either cannot be read.
int csesame_boot_clock(char boot_id[37], double *seconds_since_boot);

/// Whether a process with this id exists (kill(pid, 0) as a raw system call
/// where possible): 1 yes or unknown, 0 no.
int csesame_process_exists(int32_t pid);

/// This process's id.
int32_t csesame_process_id(void);

/// Names the calling thread (at most 15 bytes), so the threads that run
/// blocking calls (PAM, the TPM, sd-bus, RSA key generation) are visible in
/// /proc/<pid>/task/*/comm and debuggers. Returns 0 on success.
int csesame_name_current_thread(const char *name);

#endif
