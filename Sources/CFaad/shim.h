#ifndef WAVEDIAL_CFAAD_SHIM_H
#define WAVEDIAL_CFAAD_SHIM_H
#include <neaacdec.h>
#endif
