#ifndef WAVEDIAL_COPUS_SHIM_H
#define WAVEDIAL_COPUS_SHIM_H
#include <opus/opus_multistream.h>

// opus_multistream_decoder_ctl is variadic, which Swift cannot call: OPUS_SET_GAIN (the header's
// output gain, Q7.8 dB) as a typed pass-through.
static inline int COpus_setGain(OpusMSDecoder *decoder, opus_int32 gain) {
    return opus_multistream_decoder_ctl(decoder, OPUS_SET_GAIN(gain));
}
#endif
