#ifndef WAVEDIAL_CRESOLV_SHIM_H
#define WAVEDIAL_CRESOLV_SHIM_H
// glibc's stub resolver: DNS SRV look-ups for Radio Browser server discovery.
#include <netinet/in.h>
#include <arpa/nameser.h>
#include <resolv.h>

// res_query and dn_expand are macros renaming glibc's __res_query/__dn_expand, which Swift cannot see.
static inline int CResolv_query(const char *name, int type, unsigned char *answer, int length) {
    return res_query(name, ns_c_in, type, answer, length);
}
static inline int CResolv_expand(const unsigned char *message, const unsigned char *end,
                                 const unsigned char *source, char *target, int length) {
    return dn_expand(message, end, source, target, length);
}
#endif
