#ifndef WAVEDIAL_COPUS_SHIM_H
#define WAVEDIAL_COPUS_SHIM_H
#include <opus/opus.h>
#include <opus/opus_multistream.h>

// The decoder ctls are variadic, which Swift cannot call: OPUS_SET_GAIN (the header's output gain,
// Q7.8 dB) as typed pass-throughs, for the plain and the multistream decoder.
static inline int COpus_setGain(OpusDecoder *decoder, opus_int32 gain) {
    return opus_decoder_ctl(decoder, OPUS_SET_GAIN(gain));
}

static inline int COpus_setMultistreamGain(OpusMSDecoder *decoder, opus_int32 gain) {
    return opus_multistream_decoder_ctl(decoder, OPUS_SET_GAIN(gain));
}
#endif
