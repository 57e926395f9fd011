#ifndef WAVEDIAL_CALSA_SHIM_H
#define WAVEDIAL_CALSA_SHIM_H
#include <alsa/asoundlib.h>
#endif
