// A slow SD card's flush, simulated for benchmarks: fsync and fdatasync (what SQLite calls to make a commit
// durable) take SLOW_FSYNC_MS milliseconds (default 40) longer, then do what they would have done.
// Built and preloaded by bench/daemon/knob-disk.sh: LD_PRELOAD=slow_fsync.so.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static void linger(void) {
    const char *text = getenv("SLOW_FSYNC_MS");
    long ms = text ? atol(text) : 40;
    struct timespec left = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&left, &left) != 0) {}
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    linger();
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    linger();
    return real(fd);
}
