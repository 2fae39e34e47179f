#define _GNU_SOURCE  // SO_PEERCRED, struct ucred, accept4, POLLRDHUP
#include "socket_shim.h"

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <sys/socket.h>

int sesame_socket_peer_uid(int descriptor, unsigned int *uid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -errno;
    if (length != sizeof credentials) return -EINVAL;
    *uid = credentials.uid;
    return 0;
}

int sesame_socket_accept(int descriptor) {
    int client = accept4(descriptor, NULL, NULL, SOCK_CLOEXEC);
    return client < 0 ? -errno : client;
}

int sesame_socket_peer_closed(int descriptor) {
    struct pollfd watch = { .fd = descriptor, .events = POLLRDHUP, .revents = 0 };
    int ready = poll(&watch, 1, 0);
    if (ready < 0) return -errno;
    return ready > 0 && (watch.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}
