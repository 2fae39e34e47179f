#ifndef SESAME_SDBUS_SERVER_SHIM_H
#define SESAME_SDBUS_SERVER_SHIM_H
// The serving half of sd-bus (libsystemd, loaded at run time like
// sdbus_shim.h): owning a name, receiving method calls under an object path
// prefix, reading and writing messages by type, and asking the bus who sent a
// call. Every function here is for one connection on one thread; the Swift
// side (SesameLinux/DBus) keeps each connection on its own thread.

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sdbus_shim.h"

/// sd_bus_message_handler_t: return 1 when the message was handled (a reply
/// is on its way), 0 to let sd-bus answer it (unknown method or object).
typedef int (*sesame_sdbus_handler)(sesame_sd_bus_message *message, void *userdata, sesame_sd_bus_error *error);

/// Loads the server symbols (and sdbus_shim's). Returns 0 or -1; then
/// sesame_sdbus_load_error() or sesame_sdbus_server_load_error() says why.
int sesame_sdbus_server_load(void);
const char *sesame_sdbus_server_load_error(void);

/// sd_bus_request_name with SD_BUS_NAME_* flags (1 replace existing, 2 allow
/// replacement). Returns >=0, -EEXIST when another connection owns the name.
int sesame_sdbus_request_name(sesame_sd_bus *bus, const char *name, uint64_t flags);
/// Calls `handler` for every message to `prefix` or a path below it.
int sesame_sdbus_add_fallback(sesame_sd_bus *bus, const char *prefix, sesame_sdbus_handler handler, void *userdata);
/// Calls `handler` for every message matching the match rule `rule`.
int sesame_sdbus_add_match_handler(sesame_sd_bus *bus, const char *rule, sesame_sdbus_handler handler, void *userdata);
int sesame_sdbus_get_unique_name(sesame_sd_bus *bus, const char **name);

/// Processes I/O until nothing is pending, then waits for the bus or for
/// `wake_fd` to be readable, at most timeout_usec. Returns <0 on error.
int sesame_sdbus_wait_with(sesame_sd_bus *bus, int wake_fd, uint64_t timeout_usec);

sesame_sd_bus_message *sesame_sdbus_message_ref(sesame_sd_bus_message *message);
int sesame_sdbus_message_is_method_call(sesame_sd_bus_message *message);
const char *sesame_sdbus_message_get_sender(sesame_sd_bus_message *message);
const char *sesame_sdbus_message_get_interface(sesame_sd_bus_message *message);
const char *sesame_sdbus_message_get_member(sesame_sd_bus_message *message);
const char *sesame_sdbus_message_get_signature(sesame_sd_bus_message *message);
/// 1 when the caller set NO_REPLY_EXPECTED.
int sesame_sdbus_message_no_reply(sesame_sd_bus_message *message);

/// Type of the next argument and, for containers, their contents' signature.
/// Returns >0, 0 at the end of the current container, <0 on error.
int sesame_sdbus_peek_type(sesame_sd_bus_message *message, char *type, const char **contents);
/// Reads one basic value into `value` (sized for its type; strings as const char *).
int sesame_sdbus_read_basic(sesame_sd_bus_message *message, char type, void *value);
int sesame_sdbus_enter_container(sesame_sd_bus_message *message, char type, const char *contents);
int sesame_sdbus_exit_container(sesame_sd_bus_message *message);
/// Reads an array of a fixed-size type; *ptr points into the message.
int sesame_sdbus_read_array(sesame_sd_bus_message *message, char type, const void **ptr, size_t *size);

int sesame_sdbus_new_method_return(sesame_sd_bus_message *call, sesame_sd_bus_message **reply);
int sesame_sdbus_new_signal(sesame_sd_bus *bus, sesame_sd_bus_message **message, const char *path,
                            const char *interface, const char *member);
/* Makes a signal unicast: only `destination` (a unique name) receives it. */
int sesame_sdbus_set_destination(sesame_sd_bus_message *message, const char *destination);
int sesame_sdbus_append_basic(sesame_sd_bus_message *message, char type, const void *value);
int sesame_sdbus_open_container(sesame_sd_bus_message *message, char type, const char *contents);
int sesame_sdbus_close_container(sesame_sd_bus_message *message);
int sesame_sdbus_append_array(sesame_sd_bus_message *message, char type, const void *ptr, size_t size);
int sesame_sdbus_send(sesame_sd_bus *bus, sesame_sd_bus_message *message);
/// Replies to `call` with the D-Bus error `name` and `text`.
int sesame_sdbus_reply_error(sesame_sd_bus_message *call, const char *name, const char *text);

/// Asks the bus for the sender's effective uid and pid (GetConnectionCredentials
/// with dbus-daemon). *pid is 0 when the bus does not know it.
int sesame_sdbus_sender_creds(sesame_sd_bus_message *call, uid_t *euid, pid_t *pid);

#endif
