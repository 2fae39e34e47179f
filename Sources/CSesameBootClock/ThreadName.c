// pthread_setname_np is a GNU extension that Swift's Glibc module does not
// import, and its signature differs on Darwin; one C function hides both.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include "CSesameBootClock.h"

int csesame_name_current_thread(const char *name) {
#if defined(__APPLE__)
    return pthread_setname_np(name);
#else
    return pthread_setname_np(pthread_self(), name);
#endif
}
