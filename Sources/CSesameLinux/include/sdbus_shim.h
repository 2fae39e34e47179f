#ifndef SESAME_SDBUS_SHIM_H
#define SESAME_SDBUS_SHIM_H
// sd-bus (libsystemd), loaded at run time with dlopen("libsystemd.so.0").
//
// The few types and functions used are declared here rather than taken from
// <systemd/sd-bus.h>, so building needs no libsystemd-dev. sd-bus's variadic
// calls do not import into Swift, hence the fixed-arity wrappers below.
// An sd_bus connection is single-threaded: call these for one connection from
// one thread only.

#include <stddef.h>
#include <stdint.h>

typedef struct sesame_sd_bus sesame_sd_bus;
typedef struct sesame_sd_bus_message sesame_sd_bus_message;

/// Same layout as sd_bus_error.
typedef struct sesame_sd_bus_error {
    const char *name;
    const char *message;
    int _need_free;
} sesame_sd_bus_error;

/// Loads libsystemd once per process. Returns 0, or -1 when the library or a
/// symbol is missing; then sesame_sdbus_load_error() says why.
int sesame_sdbus_load(void);
const char *sesame_sdbus_load_error(void);

/// Opens a bus connection: the given address as a bus client, or the system
/// bus (honouring DBUS_SYSTEM_BUS_ADDRESS) when address is NULL.
/// Returns 0 or a negative errno.
int sesame_sdbus_open(const char *address, sesame_sd_bus **out);
/// Flushes, closes and frees the connection. NULL is ignored.
void sesame_sdbus_close(sesame_sd_bus *bus);

/// Calls a method whose arguments are all strings ('s'). On a D-Bus error,
/// `error` holds its name and message (free it with sesame_sdbus_error_free).
/// Returns 0 with *reply set, or a negative errno.
int sesame_sdbus_call(sesame_sd_bus *bus, const char *destination, const char *path,
                      const char *interface, const char *member,
                      const char *const *string_args, size_t string_arg_count,
                      uint64_t timeout_usec, sesame_sd_bus_message **reply,
                      sesame_sd_bus_error *error);
void sesame_sdbus_error_free(sesame_sd_bus_error *error);

/// Creates an empty method call, for arguments of any type appended with
/// sdbus_server_shim.h's append calls. Returns 0 or a negative errno.
int sesame_sdbus_new_method_call(sesame_sd_bus *bus, sesame_sd_bus_message **call, const char *destination,
                                 const char *path, const char *interface, const char *member);
/// Sends a call built by sesame_sdbus_new_method_call and waits for its reply;
/// `call` stays the caller's (unref it). Errors as sesame_sdbus_call.
int sesame_sdbus_call_message(sesame_sd_bus *bus, sesame_sd_bus_message *call, uint64_t timeout_usec,
                              sesame_sd_bus_message **reply, sesame_sd_bus_error *error);

/// Installs a match rule on the bus. Matching messages are returned by
/// sesame_sdbus_process. Returns 0 or a negative errno.
int sesame_sdbus_add_match(sesame_sd_bus *bus, const char *rule);
/// Processes pending I/O. Returns <0 on error, >0 when more work may be
/// pending; *message is set to an unhandled incoming message or NULL.
int sesame_sdbus_process(sesame_sd_bus *bus, sesame_sd_bus_message **message);
/// Waits for I/O for at most timeout_usec. Returns <0 on error.
int sesame_sdbus_wait(sesame_sd_bus *bus, uint64_t timeout_usec);

void sesame_sdbus_message_unref(sesame_sd_bus_message *message);
/// 1 when the message is the signal interface.member, else 0; a NULL
/// interface or member matches any.
int sesame_sdbus_message_is_signal(sesame_sd_bus_message *message, const char *interface, const char *member);
const char *sesame_sdbus_message_get_path(sesame_sd_bus_message *message);
/// Reads the next argument of basic type `type` ('s' or 'o'); *string points
/// into the message. Returns >0, 0 at the end, <0 on error.
int sesame_sdbus_read_string(sesame_sd_bus_message *message, char type, const char **string);

#endif
