#ifndef WAVEDIAL_CRESOLV_SHIM_H
#define WAVEDIAL_CRESOLV_SHIM_H
// glibc's stub resolver: DNS SRV look-ups for Radio Browser server discovery.
#include <netinet/in.h>
#include <arpa/nameser.h>
#include <resolv.h>
#endif
