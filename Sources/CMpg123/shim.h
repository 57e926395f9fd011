#ifndef WAVEDIAL_CMPG123_SHIM_H
#define WAVEDIAL_CMPG123_SHIM_H
#include <mpg123.h>
#endif
