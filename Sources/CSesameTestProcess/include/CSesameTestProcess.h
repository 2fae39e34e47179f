#ifndef CSESAME_TEST_PROCESS_H
#define CSESAME_TEST_PROCESS_H

#include <spawn.h>

/// Whether the test process's SIGPIPE handler was installed when the binary
/// loaded, before any test ran (1) or not (0).
int sesame_test_process_survives_sigpipe(void);

/// How many SIGPIPEs the test process has survived so far, on any thread.
long sesame_test_process_sigpipes(void);

/// How many SIGPIPEs were raised on threads whose name starts with
/// "sesame-": the product's own threads (`DedicatedThread`, the uhid reader,
/// pinentry's conversation). A write there to a reader that has gone must
/// fail with EPIPE, never raise SIGPIPE.
long sesame_test_process_sigpipes_on_sesame_threads(void);

/// How many SIGPIPEs were raised on the calling thread.
long sesame_test_process_sigpipes_on_this_thread(void);

/// Closes every descriptor from `lowest` up in the child that `actions`
/// start (glibc's posix_spawn_file_actions_addclosefrom_np, which Swift's
/// Glibc module does not show): a test's child must not hold another
/// test's open files and pipe ends. Returns 0 or an errno value.
int sesame_test_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

#endif
