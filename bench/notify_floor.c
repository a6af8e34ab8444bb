/* The notification server's floor for bench/service's "N due in the same second" rows.

       notify_floor COUNT PER_SECOND SUMMARY_PREFIX

   At each whole second of the wall clock, from the second after the next, sends PER_SECOND
   Notify calls at once, pipelined on one session-bus connection (as nudged sends a batch), and
   prints each one's latency in ms, from its whole second to the server's answer: what any
   client gets from the server, with none of nudged's work in it. The notifications look like
   nudged's (a summary, a one-line body, Done and Snooze buttons, normal urgency).

   Build: cc -O2 -o notify_floor notify_floor.c -lsystemd (Debian: libsystemd-dev). */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <systemd/sd-bus.h>
#include <time.h>

static double wall_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

struct call {
    double second_ms;
    int answered;
};

static int on_reply(sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    struct call *call = userdata;
    if (sd_bus_message_is_method_error(reply, NULL)) {
        fprintf(stderr, "notify_floor: Notify failed: %s\n", sd_bus_message_get_error(reply)->message);
        exit(1);
    }
    printf("%.3f\n", wall_ms() - call->second_ms);
    call->answered = 1;
    return 0;
}

static void check(int r, const char *what) {
    if (r < 0) {
        fprintf(stderr, "notify_floor: %s: error %d\n", what, -r);
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: notify_floor COUNT PER_SECOND SUMMARY_PREFIX\n");
        return 2;
    }
    int count = atoi(argv[1]), per_second = atoi(argv[2]);
    sd_bus *bus;
    check(sd_bus_open_user(&bus), "connecting to the session bus");
    struct call *calls = calloc(count, sizeof *calls);
    struct timespec start;
    clock_gettime(CLOCK_REALTIME, &start);
    time_t second = start.tv_sec + 2;
    for (int first = 0; first < count; first += per_second, second++) {
        struct timespec at = {second, 0};
        while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &at, NULL) != 0) {}
        for (int i = first; i < first + per_second && i < count; i++) {
            sd_bus_message *m;
            char summary[128];
            snprintf(summary, sizeof summary, "%s %03d", argv[3], i + 1);
            calls[i].second_ms = second * 1e3;
            check(sd_bus_message_new_method_call(bus, &m, "org.freedesktop.Notifications",
                                                 "/org/freedesktop/Notifications",
                                                 "org.freedesktop.Notifications", "Notify"), "building Notify");
            check(sd_bus_message_append(m, "susssasa{sv}i", "Nudge", 0, "appointment-soon", summary,
                                        "Due today 10:00", 4, "done", "Done", "snooze", "Snooze",
                                        1, "urgency", "y", 1, -1), "building Notify");
            check(sd_bus_call_async(bus, NULL, m, on_reply, &calls[i], 0), "sending Notify");
            sd_bus_message_unref(m);
        }
        for (int i = first; i < first + per_second && i < count; i++) {
            while (!calls[i].answered) {
                check(sd_bus_process(bus, NULL), "reading the answers");
                if (!calls[i].answered) check(sd_bus_wait(bus, UINT64_MAX), "waiting for the answers");
            }
        }
        fflush(stdout);
    }
    sd_bus_flush_close_unref(bus);
    free(calls);
    return 0;
}
