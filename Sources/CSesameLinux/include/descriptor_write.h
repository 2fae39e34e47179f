#ifndef SESAME_DESCRIPTOR_WRITE_H
#define SESAME_DESCRIPTOR_WRITE_H
#include <stddef.h>

// Writes all `count` bytes to a descriptor another process gave us (the
// Secret portal's pipe), waiting at most `timeout_ms` in all for room.
// A reader that left is EPIPE, never a SIGPIPE that kills the server: the
// signal is blocked on this thread for the write and a pending one taken
// back. Returns 0, or a negative errno (-ETIMEDOUT when the room never came).
int sesame_descriptor_write_all(int fd, const void *bytes, size_t count, int timeout_ms);

#endif
