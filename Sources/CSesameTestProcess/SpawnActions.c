#define _GNU_SOURCE
#include <errno.h>
#include <spawn.h>

#include "CSesameTestProcess.h"

int sesame_test_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
#if defined(__GLIBC__)
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#else
    (void)actions;
    (void)lowest;
    return ENOSYS;
#endif
}
