#ifndef SESAME_SOCKET_SHIM_H
#define SESAME_SOCKET_SHIM_H

// The GNU parts of the socket API the ssh-agent server needs, which Swift's
// Glibc module does not expose (they sit behind _GNU_SOURCE).

// The user id of the process at the other end of a UNIX socket
// (SO_PEERCRED): 0 and *uid set, or a negative errno.
int sesame_socket_peer_uid(int descriptor, unsigned int *uid);

// accept4 with SOCK_CLOEXEC: the new descriptor, or a negative errno.
int sesame_socket_accept(int descriptor);

// Whether the peer has shut down its side or the socket failed, without
// waiting: 1 yes, 0 no, a negative errno on error.
int sesame_socket_peer_closed(int descriptor);

#endif
