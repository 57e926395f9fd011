#ifndef WAVEDIAL_CEBUR128_SHIM_H
#define WAVEDIAL_CEBUR128_SHIM_H
#include <ebur128.h>
#endif
