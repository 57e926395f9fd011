#ifndef WAVEDIAL_CFLAC_SHIM_H
#define WAVEDIAL_CFLAC_SHIM_H
#include <FLAC/stream_decoder.h>
#endif
