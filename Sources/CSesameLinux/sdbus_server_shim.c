#include "sdbus_server_shim.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

// Opaque in libsystemd too; only pointers pass through.
typedef struct sesame_sd_bus sd_bus;
typedef struct sesame_sd_bus_message sd_bus_message;
typedef struct sesame_sd_bus_error sd_bus_error;
typedef struct sd_bus_slot sd_bus_slot;
typedef struct sd_bus_creds sd_bus_creds;

// SD_BUS_CREDS_* from sd-bus.h (stable ABI since systemd 221).
#define CREDS_PID (1ULL << 0)
#define CREDS_UID (1ULL << 3)
#define CREDS_EUID (1ULL << 4)

static struct {
    int (*request_name)(sd_bus *, const char *, uint64_t);
    int (*add_fallback)(sd_bus *, sd_bus_slot **, const char *, sesame_sdbus_handler, void *);
    int (*add_match)(sd_bus *, sd_bus_slot **, const char *, sesame_sdbus_handler, void *);
    int (*get_unique_name)(sd_bus *, const char **);
    int (*get_fd)(sd_bus *);
    int (*get_events)(sd_bus *);
    int (*get_timeout)(sd_bus *, uint64_t *);
    sd_bus_message *(*message_ref)(sd_bus_message *);
    int (*is_method_call)(sd_bus_message *, const char *, const char *);
    const char *(*get_sender)(sd_bus_message *);
    const char *(*get_interface)(sd_bus_message *);
    const char *(*get_member)(sd_bus_message *);
    const char *(*get_signature)(sd_bus_message *, int);
    int (*get_expect_reply)(sd_bus_message *);
    int (*peek_type)(sd_bus_message *, char *, const char **);
    int (*read_basic)(sd_bus_message *, char, void *);
    int (*enter_container)(sd_bus_message *, char, const char *);
    int (*exit_container)(sd_bus_message *);
    int (*read_array)(sd_bus_message *, char, const void **, size_t *);
    int (*new_method_return)(sd_bus_message *, sd_bus_message **);
    int (*new_signal)(sd_bus *, sd_bus_message **, const char *, const char *, const char *);
    int (*set_destination)(sd_bus_message *, const char *);
    int (*append_basic)(sd_bus_message *, char, const void *);
    int (*open_container)(sd_bus_message *, char, const char *);
    int (*close_container)(sd_bus_message *);
    int (*append_array)(sd_bus_message *, char, const void *, size_t);
    int (*send)(sd_bus *, sd_bus_message *, uint64_t *);
    int (*reply_method_error)(sd_bus_message *, const sd_bus_error *);
    int (*query_sender_creds)(sd_bus_message *, uint64_t, sd_bus_creds **);
    int (*creds_get_euid)(sd_bus_creds *, uid_t *);
    int (*creds_get_uid)(sd_bus_creds *, uid_t *);
    int (*creds_get_pid)(sd_bus_creds *, pid_t *);
    sd_bus_creds *(*creds_unref)(sd_bus_creds *);
} sds;

static pthread_once_t server_once = PTHREAD_ONCE_INIT;
static int server_result = -1;
static char server_error[512] = "libsystemd.so.0 was not loaded";

#define SERVER_BIND(field, symbol)                                                              \
    do {                                                                                        \
        *(void **)(&sds.field) = dlsym(handle, symbol);                                         \
        if (!sds.field) {                                                                       \
            snprintf(server_error, sizeof server_error, "libsystemd.so.0 has no %s", symbol);   \
            return;                                                                             \
        }                                                                                       \
    } while (0)

static void load_server(void) {
    if (sesame_sdbus_load() != 0) {
        const char *why = sesame_sdbus_load_error();
        snprintf(server_error, sizeof server_error, "%s", why ? why : "libsystemd.so.0 could not be loaded");
        return;
    }
    // The same library sdbus_shim.c opened; dlopen only counts a reference.
    void *handle = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(server_error, sizeof server_error, "libsystemd.so.0 could not be loaded");
        return;
    }
    SERVER_BIND(request_name, "sd_bus_request_name");
    SERVER_BIND(add_fallback, "sd_bus_add_fallback");
    SERVER_BIND(add_match, "sd_bus_add_match");
    SERVER_BIND(get_unique_name, "sd_bus_get_unique_name");
    SERVER_BIND(get_fd, "sd_bus_get_fd");
    SERVER_BIND(get_events, "sd_bus_get_events");
    SERVER_BIND(get_timeout, "sd_bus_get_timeout");
    SERVER_BIND(message_ref, "sd_bus_message_ref");
    SERVER_BIND(is_method_call, "sd_bus_message_is_method_call");
    SERVER_BIND(get_sender, "sd_bus_message_get_sender");
    SERVER_BIND(get_interface, "sd_bus_message_get_interface");
    SERVER_BIND(get_member, "sd_bus_message_get_member");
    SERVER_BIND(get_signature, "sd_bus_message_get_signature");
    SERVER_BIND(get_expect_reply, "sd_bus_message_get_expect_reply");
    SERVER_BIND(peek_type, "sd_bus_message_peek_type");
    SERVER_BIND(read_basic, "sd_bus_message_read_basic");
    SERVER_BIND(enter_container, "sd_bus_message_enter_container");
    SERVER_BIND(exit_container, "sd_bus_message_exit_container");
    SERVER_BIND(read_array, "sd_bus_message_read_array");
    SERVER_BIND(new_method_return, "sd_bus_message_new_method_return");
    SERVER_BIND(new_signal, "sd_bus_message_new_signal");
    SERVER_BIND(set_destination, "sd_bus_message_set_destination");
    SERVER_BIND(append_basic, "sd_bus_message_append_basic");
    SERVER_BIND(open_container, "sd_bus_message_open_container");
    SERVER_BIND(close_container, "sd_bus_message_close_container");
    SERVER_BIND(append_array, "sd_bus_message_append_array");
    SERVER_BIND(send, "sd_bus_send");
    SERVER_BIND(reply_method_error, "sd_bus_reply_method_error");
    SERVER_BIND(query_sender_creds, "sd_bus_query_sender_creds");
    SERVER_BIND(creds_get_euid, "sd_bus_creds_get_euid");
    SERVER_BIND(creds_get_uid, "sd_bus_creds_get_uid");
    SERVER_BIND(creds_get_pid, "sd_bus_creds_get_pid");
    SERVER_BIND(creds_unref, "sd_bus_creds_unref");
    server_result = 0;
}

int sesame_sdbus_server_load(void) {
    pthread_once(&server_once, load_server);
    return server_result;
}

const char *sesame_sdbus_server_load_error(void) {
    return server_result == 0 ? NULL : server_error;
}

int sesame_sdbus_request_name(sesame_sd_bus *bus, const char *name, uint64_t flags) {
    return sds.request_name(bus, name, flags);
}

int sesame_sdbus_add_fallback(sesame_sd_bus *bus, const char *prefix, sesame_sdbus_handler handler, void *userdata) {
    // Floating slot: it lives as long as the connection.
    return sds.add_fallback(bus, NULL, prefix, handler, userdata);
}

int sesame_sdbus_add_match_handler(sesame_sd_bus *bus, const char *rule, sesame_sdbus_handler handler, void *userdata) {
    return sds.add_match(bus, NULL, rule, handler, userdata);
}

int sesame_sdbus_get_unique_name(sesame_sd_bus *bus, const char **name) {
    *name = NULL;
    return sds.get_unique_name(bus, name);
}

int sesame_sdbus_wait_with(sesame_sd_bus *bus, int wake_fd, uint64_t timeout_usec) {
    int fd = sds.get_fd(bus);
    if (fd < 0) return fd;
    int events = sds.get_events(bus);
    if (events < 0) return events;
    uint64_t until = 0;
    int r = sds.get_timeout(bus, &until);
    if (r < 0) return r;
    uint64_t wait = timeout_usec;
    if (until != UINT64_MAX) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        uint64_t n = (uint64_t)now.tv_sec * 1000000ULL + (uint64_t)now.tv_nsec / 1000ULL;
        uint64_t left = until > n ? until - n : 0;
        if (left < wait) wait = left;
    }
    struct pollfd fds[2] = {{.fd = fd, .events = (short)events}, {.fd = wake_fd, .events = POLLIN}};
    int ms = wait == UINT64_MAX ? -1 : (int)((wait + 999) / 1000 > 60000 ? 60000 : (wait + 999) / 1000);
    r = poll(fds, wake_fd >= 0 ? 2 : 1, ms);
    if (r < 0) return errno == EINTR ? 0 : -errno;
    return r;
}

sesame_sd_bus_message *sesame_sdbus_message_ref(sesame_sd_bus_message *message) {
    return sds.message_ref(message);
}

int sesame_sdbus_message_is_method_call(sesame_sd_bus_message *message) {
    return sds.is_method_call(message, NULL, NULL) > 0;
}

const char *sesame_sdbus_message_get_sender(sesame_sd_bus_message *message) { return sds.get_sender(message); }
const char *sesame_sdbus_message_get_interface(sesame_sd_bus_message *message) { return sds.get_interface(message); }
const char *sesame_sdbus_message_get_member(sesame_sd_bus_message *message) { return sds.get_member(message); }
const char *sesame_sdbus_message_get_signature(sesame_sd_bus_message *message) {
    return sds.get_signature(message, 1);
}
int sesame_sdbus_message_no_reply(sesame_sd_bus_message *message) { return sds.get_expect_reply(message) == 0; }

int sesame_sdbus_peek_type(sesame_sd_bus_message *message, char *type, const char **contents) {
    *type = 0;
    *contents = NULL;
    return sds.peek_type(message, type, contents);
}

int sesame_sdbus_read_basic(sesame_sd_bus_message *message, char type, void *value) {
    return sds.read_basic(message, type, value);
}

int sesame_sdbus_enter_container(sesame_sd_bus_message *message, char type, const char *contents) {
    return sds.enter_container(message, type, contents);
}

int sesame_sdbus_exit_container(sesame_sd_bus_message *message) { return sds.exit_container(message); }

int sesame_sdbus_read_array(sesame_sd_bus_message *message, char type, const void **ptr, size_t *size) {
    *ptr = NULL;
    *size = 0;
    return sds.read_array(message, type, ptr, size);
}

int sesame_sdbus_new_method_return(sesame_sd_bus_message *call, sesame_sd_bus_message **reply) {
    *reply = NULL;
    return sds.new_method_return(call, reply);
}

int sesame_sdbus_new_signal(sesame_sd_bus *bus, sesame_sd_bus_message **message, const char *path,
                            const char *interface, const char *member) {
    *message = NULL;
    return sds.new_signal(bus, message, path, interface, member);
}

int sesame_sdbus_set_destination(sesame_sd_bus_message *message, const char *destination) {
    return sds.set_destination(message, destination);
}

int sesame_sdbus_append_basic(sesame_sd_bus_message *message, char type, const void *value) {
    return sds.append_basic(message, type, value);
}

int sesame_sdbus_open_container(sesame_sd_bus_message *message, char type, const char *contents) {
    return sds.open_container(message, type, contents);
}

int sesame_sdbus_close_container(sesame_sd_bus_message *message) { return sds.close_container(message); }

int sesame_sdbus_append_array(sesame_sd_bus_message *message, char type, const void *ptr, size_t size) {
    return sds.append_array(message, type, ptr, size);
}

int sesame_sdbus_send(sesame_sd_bus *bus, sesame_sd_bus_message *message) { return sds.send(bus, message, NULL); }

int sesame_sdbus_reply_error(sesame_sd_bus_message *call, const char *name, const char *text) {
    sd_bus_error error = {.name = name, .message = text, ._need_free = 0};
    return sds.reply_method_error(call, &error);
}

int sesame_sdbus_sender_creds(sesame_sd_bus_message *call, uid_t *euid, pid_t *pid) {
    *euid = (uid_t)-1;
    *pid = 0;
    sd_bus_creds *creds = NULL;
    int r = sds.query_sender_creds(call, CREDS_EUID | CREDS_UID | CREDS_PID, &creds);
    if (r < 0) return r;
    // dbus-daemon reports one uid (UnixUserID); sd-bus files it as the
    // effective or the real one depending on its version.
    r = sds.creds_get_euid(creds, euid);
    if (r < 0) r = sds.creds_get_uid(creds, euid);
    if (r >= 0 && sds.creds_get_pid(creds, pid) < 0) *pid = 0;
    sds.creds_unref(creds);
    return r < 0 ? r : 0;
}
