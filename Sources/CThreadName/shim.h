#ifndef WAVEDIAL_CTHREADNAME_SHIM_H
#define WAVEDIAL_CTHREADNAME_SHIM_H
// The calling thread's name as the kernel shows it (/proc/PID/task/TID/comm, top -H).
#include <sys/prctl.h>

// prctl is variadic, which Swift cannot call; pthread_setname_np needs _GNU_SOURCE, which
// Swift's Glibc module is not built with. At most 15 bytes are kept.
static inline int CThreadName_set(const char *name) {
    return prctl(PR_SET_NAME, name, 0, 0, 0);
}
#endif
