#ifndef CSESAME_TEST_PROCESS_H
#define CSESAME_TEST_PROCESS_H

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

#endif
