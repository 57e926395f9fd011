#ifndef WAVEDIAL_CVORBIS_SHIM_H
#define WAVEDIAL_CVORBIS_SHIM_H
#include <vorbis/codec.h>
#endif
