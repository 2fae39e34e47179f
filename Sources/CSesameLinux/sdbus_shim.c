#include "sdbus_shim.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// Opaque in libsystemd too; the shim only passes pointers through.
typedef struct sesame_sd_bus sd_bus;
typedef struct sesame_sd_bus_message sd_bus_message;
typedef struct sesame_sd_bus_error sd_bus_error;
typedef struct sd_bus_slot sd_bus_slot;
typedef int (*sd_bus_message_handler_t)(sd_bus_message *, void *, sd_bus_error *);

static struct {
    int (*open_system)(sd_bus **);
    int (*bus_new)(sd_bus **);
    int (*set_address)(sd_bus *, const char *);
    int (*set_bus_client)(sd_bus *, int);
    int (*start)(sd_bus *);
    sd_bus *(*flush_close_unref)(sd_bus *);
    int (*new_method_call)(sd_bus *, sd_bus_message **, const char *, const char *, const char *, const char *);
    int (*append_basic)(sd_bus_message *, char, const void *);
    int (*call)(sd_bus *, sd_bus_message *, uint64_t, sd_bus_error *, sd_bus_message **);
    void (*error_free)(sd_bus_error *);
    int (*add_match)(sd_bus *, sd_bus_slot **, const char *, sd_bus_message_handler_t, void *);
    int (*process)(sd_bus *, sd_bus_message **);
    int (*wait)(sd_bus *, uint64_t);
    sd_bus_message *(*message_unref)(sd_bus_message *);
    int (*is_signal)(sd_bus_message *, const char *, const char *);
    const char *(*get_path)(sd_bus_message *);
    int (*read_basic)(sd_bus_message *, char, void *);
} sd;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_result = -1;
static char load_error[512] = "libsystemd.so.0 was not loaded";

#define SESAME_BIND(field, symbol)                                                         \
    do {                                                                                   \
        *(void **)(&sd.field) = dlsym(handle, symbol);                                     \
        if (!sd.field) {                                                                   \
            snprintf(load_error, sizeof load_error, "libsystemd.so.0 has no %s", symbol); \
            return;                                                                        \
        }                                                                                  \
    } while (0)

static void load_library(void) {
    // Never closed: sd-bus objects may outlive any one caller.
    void *handle = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : "libsystemd.so.0 could not be loaded");
        return;
    }
    SESAME_BIND(open_system, "sd_bus_open_system");
    SESAME_BIND(bus_new, "sd_bus_new");
    SESAME_BIND(set_address, "sd_bus_set_address");
    SESAME_BIND(set_bus_client, "sd_bus_set_bus_client");
    SESAME_BIND(start, "sd_bus_start");
    SESAME_BIND(flush_close_unref, "sd_bus_flush_close_unref");
    SESAME_BIND(new_method_call, "sd_bus_message_new_method_call");
    SESAME_BIND(append_basic, "sd_bus_message_append_basic");
    SESAME_BIND(call, "sd_bus_call");
    SESAME_BIND(error_free, "sd_bus_error_free");
    SESAME_BIND(add_match, "sd_bus_add_match");
    SESAME_BIND(process, "sd_bus_process");
    SESAME_BIND(wait, "sd_bus_wait");
    SESAME_BIND(message_unref, "sd_bus_message_unref");
    SESAME_BIND(is_signal, "sd_bus_message_is_signal");
    SESAME_BIND(get_path, "sd_bus_message_get_path");
    SESAME_BIND(read_basic, "sd_bus_message_read_basic");
    load_result = 0;
}

int sesame_sdbus_load(void) {
    pthread_once(&load_once, load_library);
    return load_result;
}

const char *sesame_sdbus_load_error(void) {
    return load_result == 0 ? NULL : load_error;
}

int sesame_sdbus_open(const char *address, sesame_sd_bus **out) {
    *out = NULL;
    if (sesame_sdbus_load() != 0) return -ENOSYS;
    sd_bus *bus = NULL;
    int r;
    if (!address) {
        r = sd.open_system(&bus);
        if (r < 0) return r;
        *out = bus;
        return 0;
    }
    r = sd.bus_new(&bus);
    if (r < 0) return r;
    // Bus client: send Hello and get a unique name, as open_system would.
    if ((r = sd.set_address(bus, address)) < 0 || (r = sd.set_bus_client(bus, 1)) < 0 ||
        (r = sd.start(bus)) < 0) {
        sd.flush_close_unref(bus);
        return r;
    }
    *out = bus;
    return 0;
}

void sesame_sdbus_close(sesame_sd_bus *bus) {
    if (bus && sesame_sdbus_load() == 0) sd.flush_close_unref(bus);
}

int sesame_sdbus_call(sesame_sd_bus *bus, const char *destination, const char *path,
                      const char *interface, const char *member,
                      const char *const *string_args, size_t string_arg_count,
                      uint64_t timeout_usec, sesame_sd_bus_message **reply,
                      sesame_sd_bus_error *error) {
    *reply = NULL;
    sd_bus_message *call = NULL;
    int r = sd.new_method_call(bus, &call, destination, path, interface, member);
    if (r < 0) return r;
    for (size_t i = 0; i < string_arg_count; i++) {
        r = sd.append_basic(call, 's', string_args[i]);
        if (r < 0) {
            sd.message_unref(call);
            return r;
        }
    }
    r = sd.call(bus, call, timeout_usec, error, reply);
    sd.message_unref(call);
    return r < 0 ? r : 0;
}

int sesame_sdbus_new_method_call(sesame_sd_bus *bus, sesame_sd_bus_message **call, const char *destination,
                                 const char *path, const char *interface, const char *member) {
    *call = NULL;
    return sd.new_method_call(bus, call, destination, path, interface, member);
}

int sesame_sdbus_call_message(sesame_sd_bus *bus, sesame_sd_bus_message *call, uint64_t timeout_usec,
                              sesame_sd_bus_message **reply, sesame_sd_bus_error *error) {
    *reply = NULL;
    int r = sd.call(bus, call, timeout_usec, error, reply);
    return r < 0 ? r : 0;
}

void sesame_sdbus_error_free(sesame_sd_bus_error *error) {
    if (sesame_sdbus_load() == 0) sd.error_free(error);
}

// Returning 0 leaves the message unhandled, so sd_bus_process hands it to
// the caller: the Swift side reads signals in its own loop, no callback state.
static int leave_unhandled(sd_bus_message *message, void *userdata, sd_bus_error *error) {
    (void)message;
    (void)userdata;
    (void)error;
    return 0;
}

int sesame_sdbus_add_match(sesame_sd_bus *bus, const char *rule) {
    return sd.add_match(bus, NULL, rule, leave_unhandled, NULL);
}

int sesame_sdbus_process(sesame_sd_bus *bus, sesame_sd_bus_message **message) {
    *message = NULL;
    return sd.process(bus, message);
}

int sesame_sdbus_wait(sesame_sd_bus *bus, uint64_t timeout_usec) {
    return sd.wait(bus, timeout_usec);
}

void sesame_sdbus_message_unref(sesame_sd_bus_message *message) {
    if (message) sd.message_unref(message);
}

int sesame_sdbus_message_is_signal(sesame_sd_bus_message *message, const char *interface, const char *member) {
    return sd.is_signal(message, interface, member) > 0;
}

const char *sesame_sdbus_message_get_path(sesame_sd_bus_message *message) {
    return sd.get_path(message);
}

int sesame_sdbus_read_string(sesame_sd_bus_message *message, char type, const char **string) {
    *string = NULL;
    return sd.read_basic(message, type, string);
}
