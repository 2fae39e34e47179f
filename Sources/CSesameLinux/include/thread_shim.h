#ifndef SESAME_THREAD_SHIM_H
#define SESAME_THREAD_SHIM_H

// Names the calling thread (at most 15 bytes), so the threads that run
// blocking C calls (PAM, the TPM) are visible in /proc/<pid>/task/*/comm and
// debuggers. pthread_setname_np is a GNU extension that Swift's Glibc module
// does not import.
int sesame_name_current_thread(const char *name);

#endif
