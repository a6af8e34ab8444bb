// Linux interfaces that Swift's Glibc module leaves out.
#include <sys/timerfd.h>
#include <sys/inotify.h>

// Declared by glibc only with _GNU_SOURCE, which Swift's Glibc module is built without; the
// tests use it for pipes no other thread's child inherits.
int pipe2(int fds[2], int flags);
