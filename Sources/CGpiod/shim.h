#ifndef WAVEDIAL_CGPIOD_SHIM_H
#define WAVEDIAL_CGPIOD_SHIM_H
#include <gpiod.h>
#endif
