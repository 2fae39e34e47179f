// Linked into the test binary only (every test target depends on it).
//
// With the default disposition, one write to a pipe or socket whose reader
// has gone kills the whole test process, every suite with it, and the run
// says only "signal code 13". A handler installed as the binary loads, before
// any test (or Swift Testing itself) runs, turns that into EPIPE for the
// writer, wherever the write is. It is a handler, not SIG_IGN, because exec
// resets handlers: the programs the tests start (sesame, python3, ssh) get the
// default disposition, as from a shell. It counts what it survived, so a test
// can prove that product code never raised one.
#include "CSesameTestProcess.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

static atomic_int installed;
static atomic_long raised;
static atomic_long raised_on_sesame_threads;
static _Thread_local long raised_here;

static void survive(int number) {
    (void)number;
    int saved = errno;
    atomic_fetch_add(&raised, 1);
    raised_here += 1;
    // Only async-signal-safe calls: open, read, close.
    char name[16] = {0};
    int descriptor = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC);
    if (descriptor >= 0) {
        (void)read(descriptor, name, sizeof name - 1);
        close(descriptor);
        if (memcmp(name, "sesame-", 7) == 0) atomic_fetch_add(&raised_on_sesame_threads, 1);
    }
    errno = saved;
}

__attribute__((constructor)) static void install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = survive;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(SIGPIPE, &action, NULL) == 0) atomic_store(&installed, 1);
}

int sesame_test_process_survives_sigpipe(void) { return atomic_load(&installed); }
long sesame_test_process_sigpipes(void) { return atomic_load(&raised); }
long sesame_test_process_sigpipes_on_sesame_threads(void) { return atomic_load(&raised_on_sesame_threads); }
long sesame_test_process_sigpipes_on_this_thread(void) { return raised_here; }
