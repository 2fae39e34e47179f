#define _GNU_SOURCE
#include <pthread.h>
#include "thread_shim.h"

int sesame_name_current_thread(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}
