// libsystemd's declarations only: the library is opened with dlopen on first use and called
// through the pointers dlsym returns. Linked, it and what it needs (libgcrypt, libcap, three
// compressors) were loaded and bound at every start of `nudge`, half a millisecond of each
// command, where only `nudge history` and nudged use it.
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <sys/uio.h>
#include "../CLibraryTable/library_table.h"
#include <stddef.h>

/// The functions of libsystemd that Nudge uses.
#define NUDGE_SYSTEMD_FUNCTIONS(X) \
    X(sd_bus_add_filter) \
    X(sd_bus_add_match) \
    X(sd_bus_call) \
    X(sd_bus_call_async) \
    X(sd_bus_error_free) \
    X(sd_bus_flush) \
    X(sd_bus_flush_close_unref) \
    X(sd_bus_get_fd) \
    X(sd_bus_get_timeout) \
    X(sd_bus_is_open) \
    X(sd_bus_match_signal) \
    X(sd_bus_message_append_basic) \
    X(sd_bus_message_close_container) \
    X(sd_bus_message_enter_container) \
    X(sd_bus_message_exit_container) \
    X(sd_bus_message_get_cookie) \
    X(sd_bus_message_get_errno) \
    X(sd_bus_message_get_error) \
    X(sd_bus_message_get_reply_cookie) \
    X(sd_bus_message_get_sender) \
    X(sd_bus_message_get_type) \
    X(sd_bus_message_new_method_call) \
    X(sd_bus_message_open_container) \
    X(sd_bus_message_read_basic) \
    X(sd_bus_message_set_expect_reply) \
    X(sd_bus_message_unref) \
    X(sd_bus_new) \
    X(sd_bus_open_user) \
    X(sd_bus_process) \
    X(sd_bus_send) \
    X(sd_bus_set_address) \
    X(sd_bus_set_bus_client) \
    X(sd_bus_slot_set_destroy_callback) \
    X(sd_bus_slot_set_floating) \
    X(sd_bus_slot_unref) \
    X(sd_bus_start) \
    X(sd_journal_add_match) \
    X(sd_journal_close) \
    X(sd_journal_enumerate_available_data) \
    X(sd_journal_get_realtime_usec) \
    X(sd_journal_get_usage) \
    X(sd_journal_next) \
    X(sd_journal_open) \
    X(sd_journal_previous) \
    X(sd_journal_restart_data) \
    X(sd_journal_seek_head) \
    X(sd_journal_seek_tail) \
    X(sd_journal_sendv) \
    X(sd_journal_set_data_threshold) \
    X(sd_notify) \
    X(sd_watchdog_enabled)

/// nudge_systemd_api: each function as dlsym found it, under its own name.
NUDGE_LIBRARY_TABLE(nudge_systemd_api, NUDGE_SYSTEMD_FUNCTIONS)
