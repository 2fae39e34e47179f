#define _GNU_SOURCE
#include "descriptor_write.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int sesame_descriptor_write_all(int fd, const void *bytes, size_t count, int timeout_ms) {
    // A descriptor opened for reading would only ever time out below.
    int access = fcntl(fd, F_GETFL);
    if (access < 0) return -errno;
    if ((access & O_ACCMODE) == O_RDONLY) return -EBADF;

    sigset_t pipe_only, previous;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    // A SIGPIPE already pending for another reason must not be swallowed below.
    sigset_t pending;
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &previous);

    int result = 0;
    int raised_here = 0;
    const char *next = bytes;
    size_t left = count;
    long long deadline = now_ms() + timeout_ms;
    while (left > 0) {
        long long remaining = deadline - now_ms();
        if (remaining <= 0) { result = -ETIMEDOUT; break; }
        struct pollfd waiting = {.fd = fd, .events = POLLOUT};
        int ready = poll(&waiting, 1, (int)remaining);
        if (ready < 0) {
            if (errno == EINTR) continue;
            result = -errno;
            break;
        }
        if (ready == 0) { result = -ETIMEDOUT; break; }
        if (waiting.revents & POLLNVAL) { result = -EBADF; break; }
        ssize_t written = write(fd, next, left);
        if (written < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            if (errno == EPIPE) raised_here = 1;
            result = -errno;
            break;
        }
        next += written;
        left -= (size_t)written;
    }

    if (raised_here && !was_pending) {
        struct timespec zero = {0, 0};
        sigtimedwait(&pipe_only, NULL, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    return result;
}
