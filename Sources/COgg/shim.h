#ifndef WAVEDIAL_COGG_SHIM_H
#define WAVEDIAL_COGG_SHIM_H
#include <ogg/ogg.h>
#endif
