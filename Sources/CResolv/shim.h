#ifndef WAVEDIAL_CRESOLV_SHIM_H
#define WAVEDIAL_CRESOLV_SHIM_H
// glibc's stub resolver: DNS SRV look-ups for Radio Browser server discovery, and whether a name a
// stream could not resolve exists at all (NXDOMAIN).
#include <netinet/in.h>
#include <arpa/nameser.h>
#include <netdb.h>
#include <resolv.h>

// res_query and dn_expand are macros renaming glibc's __res_query/__dn_expand, which Swift cannot see.
static inline int CResolv_query(const char *name, int type, unsigned char *answer, int length) {
    return res_query(name, ns_c_in, type, answer, length);
}
static inline int CResolv_expand(const unsigned char *message, const unsigned char *end,
                                 const unsigned char *source, char *target, int length) {
    return dn_expand(message, end, source, target, length);
}
// res_ninit and res_nclose are macros too (__res_ninit, __res_nclose); res_nsearch is one in some glibc
// versions. A resolver state of the caller's own lets it shorten the timeouts for one search.
static inline int CResolv_ninit(res_state state) { return res_ninit(state); }
static inline int CResolv_nsearch(res_state state, const char *name, int type, unsigned char *answer, int length) {
    return res_nsearch(state, name, ns_c_in, type, answer, length);
}
static inline void CResolv_nclose(res_state state) { res_nclose(state); }
#endif
