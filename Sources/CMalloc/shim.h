#ifndef WAVEDIAL_CMALLOC_SHIM_H
#define WAVEDIAL_CMALLOC_SHIM_H
// glibc's malloc tuning (malloc.h), which Swift's Glibc module does not include.
#include <malloc.h>

// At most `count` malloc arenas for the process's threads (glibc's default: eight a core).
static inline int CMalloc_limitArenas(int count) {
    return mallopt(M_ARENA_MAX, count);
}
#endif
