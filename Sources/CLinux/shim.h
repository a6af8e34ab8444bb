// Linux interfaces that Swift's Glibc module leaves out.
#include <sys/timerfd.h>
#include <sys/inotify.h>

// Declared by glibc only with _GNU_SOURCE, which Swift's Glibc module is built without; the
// tests use them for a private mount namespace and for pipes no other thread's child inherits.
#ifndef CLONE_NEWNS
#define CLONE_NEWNS 0x00020000
#endif
int unshare(int flags);
int pipe2(int fds[2], int flags);
// A vdir sync flushes a batch of new files with one call rather than one fsync each.
int syncfs(int fd);
// nudged's children get no descriptor but their stdin, stdout and stderr (glibc 2.34).
#include <spawn.h>
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
#include <malloc.h>

// The width of the terminal on `fd`, or 0 when it is not one (ioctl is variadic).
#include <sys/ioctl.h>
static inline int nudge_terminal_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
}

// A descriptor that becomes readable when the process `pid` exits (Linux 5.3), so that nudged
// can wait for a child on its own queue; glibc 2.36 has no wrapper in the headers Swift sees.
#include <sys/syscall.h>
#include <unistd.h>
static inline int nudge_pidfd_open(int pid) {
    return (int)syscall(434 /* SYS_pidfd_open */, pid, 0);
}

// A locale's first day of the week. glibc keeps it as two items that Swift cannot read as
// they are: _NL_TIME_WEEK_1STDAY, the date (e.g. 19971130, a Sunday) its day numbering starts
// from, stored in the pointer itself; and _NL_TIME_FIRST_WEEKDAY, the first day's number
// counted from that date (1 = the date's own weekday), stored in the first byte.
#include <langinfo.h>
#include <locale.h>
#include <stdint.h>
static inline unsigned int nudge_week_origin(locale_t locale) {
    return (unsigned int)(uintptr_t)nl_langinfo_l(_NL_TIME_WEEK_1STDAY, locale);
}
static inline int nudge_first_weekday(locale_t locale) {
    return nl_langinfo_l(_NL_TIME_FIRST_WEEKDAY, locale)[0];
}
// nl_langinfo_l with the item as a plain int (Swift imports D_FMT and its kin as Int).
static inline const char *nudge_langinfo(int item, locale_t locale) {
    return nl_langinfo_l((nl_item)item, locale);
}
