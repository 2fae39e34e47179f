// Why raw system calls: a process's own libc (and anything preloaded into it)
// can lie about the time; the attempt gate's delays must not depend on that.
#include "CSesameBootClock.h"

#include <string.h>

#if defined(__linux__)
#include <time.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
static long raw_syscall(long n, long a, long b, long c, long d) {
    long ret;
    register long r10 __asm__("r10") = d;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
    return ret;
}
#define NR_CLOCK_GETTIME 228
#define NR_OPENAT 257
#define NR_READ 0
#define NR_CLOSE 3
#define NR_KILL 62
#define NR_GETPID 39
#define HAVE_RAW 1
#elif defined(__aarch64__)
static long raw_syscall(long n, long a, long b, long c, long d) {
    register long x8 __asm__("x8") = n;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    __asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
    return x0;
}
#define NR_CLOCK_GETTIME 113
#define NR_OPENAT 56
#define NR_READ 63
#define NR_CLOSE 57
#define NR_KILL 129
#define NR_GETPID 172
#define HAVE_RAW 1
#else
// Other architectures: through libc's syscall(), which a preloaded library can replace.
static long raw_syscall(long n, long a, long b, long c, long d) {
    long ret = syscall(n, a, b, c, d);
    return ret == -1 ? -errno : ret;
}
#define NR_CLOCK_GETTIME SYS_clock_gettime
#define NR_OPENAT SYS_openat
#define NR_READ SYS_read
#define NR_CLOSE SYS_close
#define NR_KILL SYS_kill
#define NR_GETPID SYS_getpid
#endif

#ifndef CLOCK_BOOTTIME
#define CLOCK_BOOTTIME 7
#endif

int csesame_boot_clock(char boot_id[37], double *seconds_since_boot) {
    struct timespec ts;
    if (raw_syscall(NR_CLOCK_GETTIME, CLOCK_BOOTTIME, (long)&ts, 0, 0) != 0) return -1;
    long fd = raw_syscall(NR_OPENAT, AT_FDCWD, (long)"/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0) return -1;
    char buffer[64];
    long total = 0;
    while (total < (long)sizeof(buffer)) {
        long n = raw_syscall(NR_READ, fd, (long)(buffer + total), (long)sizeof(buffer) - total, 0);
        if (n == -EINTR) continue;
        if (n <= 0) break;
        total += n;
    }
    raw_syscall(NR_CLOSE, fd, 0, 0, 0);
    if (total < 36) return -1;
    memcpy(boot_id, buffer, 36);
    boot_id[36] = 0;
    *seconds_since_boot = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
    return 0;
}

int csesame_process_exists(int32_t pid) {
    if (pid <= 0) return 0;
    long r = raw_syscall(NR_KILL, pid, 0, 0, 0);
    return r == -ESRCH ? 0 : 1;
}

int32_t csesame_process_id(void) {
    return (int32_t)raw_syscall(NR_GETPID, 0, 0, 0, 0);
}

#elif defined(__APPLE__)
#include <errno.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/sysctl.h>

// CLOCK_MONOTONIC counts sleep on Darwin; the boot session UUID changes at every boot.
int csesame_boot_clock(char boot_id[37], double *seconds_since_boot) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return -1;
    char buffer[64] = {0};
    size_t size = sizeof(buffer) - 1;
    if (sysctlbyname("kern.bootsessionuuid", buffer, &size, NULL, 0) != 0 || strlen(buffer) < 36) return -1;
    memcpy(boot_id, buffer, 36);
    boot_id[36] = 0;
    *seconds_since_boot = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
    return 0;
}

int csesame_process_exists(int32_t pid) {
    if (pid <= 0) return 0;
    return (kill(pid, 0) == -1 && errno == ESRCH) ? 0 : 1;
}

int32_t csesame_process_id(void) { return (int32_t)getpid(); }

#else
int csesame_boot_clock(char boot_id[37], double *seconds_since_boot) { (void)boot_id; (void)seconds_since_boot; return -1; }
int csesame_process_exists(int32_t pid) { (void)pid; return 1; }
int32_t csesame_process_id(void) { return 0; }
#endif
