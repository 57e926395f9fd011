/* loadcost: what a decoder library costs a process that loads it, for the library choice in
 * docs/BENCHMARKS.md ("Decoder libraries"). bench/decoder-libraries/run.sh builds it with gcc once per
 * option and runs it; nothing here is part of the radio.
 *
 *   loadcost FORMAT FILE      FORMAT: aac (ADTS) or opus (Ogg); FILE is read whole, then decoded
 *
 * One build per option, chosen at compile time (the script links the matching libraries):
 *   -DWITH_NONE      reads the file and decodes nothing: the floor of a C program
 *   -DWITH_FAAD      libfaad2 for AAC
 *   -DWITH_OPUS      libogg + libopus for Opus (both flags: the focused libraries; the script may also
 *                    link libvorbis and libFLAC, unused, to see what loading all of them at start costs)
 *   -DWITH_AVCODEC   libavcodec alone: its ADTS parser for AAC, libogg's pages for Opus
 *   -DWITH_AVFORMAT  libavformat demuxes (the named demuxer, no probing), libavcodec decodes
 *
 * LOADCOST_T0_NS (CLOCK_MONOTONIC, set by the launcher just before it spawns this process) makes the
 * times relative to the launch. Prints one line of key=value: main_ms (launch -> main: the loader's
 * work), first_pcm_ms (launch -> the first decoded samples), audio_s (seconds decoded), rms (of the
 * decoded samples, to see it is sound), cpu_load_s (user+sys at main), cpu_s (at the end), hwm_kb
 * (VmHWM, peak RSS), rss_kb (VmRSS at the end). */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#if defined(WITH_FAAD)
#include <neaacdec.h>
#endif
#if defined(WITH_OPUS) || defined(WITH_AVCODEC)
#include <ogg/ogg.h>
#endif
#if defined(WITH_OPUS)
#include <opus/opus.h>
#endif
#if defined(WITH_AVCODEC) || defined(WITH_AVFORMAT)
#include <libavcodec/avcodec.h>
#endif
#if defined(WITH_AVFORMAT)
#include <libavformat/avformat.h>
#endif

static long long t0_ns;
static double first_pcm_ms = -1;
static double frames_decoded, sum_squares, samples_seen;
static int sample_rate;

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static double since_launch_ms(void) { return (double)(now_ns() - t0_ns) / 1e6; }

static double cpu_seconds(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

static long status_kb(const char *key) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0) kb = atol(line + n);
    if (f) fclose(f);
    return kb;
}

/* Every decoder hands its samples here, as floats or 16-bit integers, interleaved. */
__attribute__((unused)) static void heard_s16(const int16_t *pcm, long frames, int channels, int rate) {
    if (frames <= 0) return;
    if (first_pcm_ms < 0) first_pcm_ms = since_launch_ms();
    sample_rate = rate;
    frames_decoded += (double)frames;
    for (long i = 0; i < frames * channels; i++) sum_squares += (double)pcm[i] * pcm[i] / (32768.0 * 32768.0);
    samples_seen += (double)(frames * channels);
}

#if defined(WITH_AVCODEC) || defined(WITH_AVFORMAT)
static void heard_frame(const AVFrame *frame) {
    if (frame->nb_samples <= 0) return;
    if (first_pcm_ms < 0) first_pcm_ms = since_launch_ms();
    sample_rate = frame->sample_rate;
    frames_decoded += frame->nb_samples;
    int channels = frame->ch_layout.nb_channels;
    for (int c = 0; c < channels; c++) {   /* FFmpeg's AAC and Opus decoders give planar floats */
        const float *plane = (const float *)frame->extended_data[frame->format == AV_SAMPLE_FMT_FLTP ? c : 0];
        if (frame->format != AV_SAMPLE_FMT_FLTP && frame->format != AV_SAMPLE_FMT_FLT) return;
        long count = frame->format == AV_SAMPLE_FMT_FLTP ? frame->nb_samples : (long)frame->nb_samples * channels;
        for (long i = 0; i < count; i++) sum_squares += (double)plane[i] * plane[i];
        samples_seen += (double)count;
        if (frame->format == AV_SAMPLE_FMT_FLT) break;
    }
}

static void drain(AVCodecContext *context, const AVPacket *packet, AVFrame *frame) {
    if (avcodec_send_packet(context, packet) < 0) return;
    while (avcodec_receive_frame(context, frame) == 0) heard_frame(frame);
}
#endif

#if defined(WITH_OPUS) || defined(WITH_AVCODEC)
/* The Ogg pages of the whole file, one logical stream: calls `packet` for every packet in order. */
static void ogg_packets(const unsigned char *bytes, size_t size, void (*packet)(ogg_packet *, void *), void *context) {
    ogg_sync_state sync;
    ogg_stream_state stream;
    ogg_page page;
    ogg_packet op;
    int started = 0;
    ogg_sync_init(&sync);
    char *buffer = ogg_sync_buffer(&sync, (long)size);
    memcpy(buffer, bytes, size);
    ogg_sync_wrote(&sync, (long)size);
    while (ogg_sync_pageout(&sync, &page) == 1) {
        if (!started) {
            ogg_stream_init(&stream, ogg_page_serialno(&page));
            started = 1;
        }
        if (ogg_stream_pagein(&stream, &page) != 0) continue;
        while (ogg_stream_packetout(&stream, &op) == 1) packet(&op, context);
    }
    if (started) ogg_stream_clear(&stream);
    ogg_sync_clear(&sync);
}
#endif

#if defined(WITH_FAAD)
static void decode_aac(const unsigned char *bytes, size_t size) {
    NeAACDecHandle decoder = NeAACDecOpen();
    NeAACDecConfigurationPtr configuration = NeAACDecGetCurrentConfiguration(decoder);
    configuration->outputFormat = FAAD_FMT_16BIT;
    NeAACDecSetConfiguration(decoder, configuration);
    unsigned long rate = 0;
    unsigned char channels = 0;
    long used = NeAACDecInit(decoder, (unsigned char *)bytes, (unsigned long)size, &rate, &channels);
    if (used < 0) { fprintf(stderr, "faad: no ADTS header\n"); exit(1); }
    size_t at = (size_t)used;
    while (at < size) {
        NeAACDecFrameInfo info;
        void *pcm = NeAACDecDecode(decoder, &info, (unsigned char *)bytes + at, (unsigned long)(size - at));
        if (info.bytesconsumed == 0) break;
        at += info.bytesconsumed;
        if (info.error == 0 && pcm && info.channels > 0)
            heard_s16(pcm, (long)(info.samples / info.channels), info.channels, (int)info.samplerate);
    }
    NeAACDecClose(decoder);
}
#endif

#if defined(WITH_OPUS)
struct opus_state { OpusDecoder *decoder; int channels; long packets; int16_t pcm[5760 * 2]; };

static void opus_packet(ogg_packet *op, void *context) {
    struct opus_state *s = context;
    if (s->packets++ == 0) {   /* OpusHead: the channel count, mapping family 0 (mono or stereo) */
        if (op->bytes < 19 || memcmp(op->packet, "OpusHead", 8) != 0) { fprintf(stderr, "not Opus\n"); exit(1); }
        s->channels = op->packet[9];
        int error = 0;
        s->decoder = opus_decoder_create(48000, s->channels, &error);
        if (error != OPUS_OK) { fprintf(stderr, "opus: %s\n", opus_strerror(error)); exit(1); }
        return;
    }
    if (s->packets == 2) return;   /* OpusTags */
    int frames = opus_decode(s->decoder, op->packet, (opus_int32)op->bytes, s->pcm, 5760, 0);
    if (frames > 0) heard_s16(s->pcm, frames, s->channels, 48000);
}

static void decode_opus(const unsigned char *bytes, size_t size) {
    static struct opus_state state;
    ogg_packets(bytes, size, opus_packet, &state);
    if (state.decoder) opus_decoder_destroy(state.decoder);
}
#endif

#if defined(WITH_AVCODEC)
static AVCodecContext *open_decoder(enum AVCodecID id, const unsigned char *extradata, int extradata_size) {
    const AVCodec *codec = avcodec_find_decoder(id);
    AVCodecContext *context = avcodec_alloc_context3(codec);
    context->thread_count = 1;
    if (extradata_size > 0) {
        context->extradata = av_mallocz((size_t)extradata_size + AV_INPUT_BUFFER_PADDING_SIZE);
        memcpy(context->extradata, extradata, (size_t)extradata_size);
        context->extradata_size = extradata_size;
    }
    if (!codec || !context || avcodec_open2(context, codec, NULL) < 0) { fprintf(stderr, "avcodec: cannot open\n"); exit(1); }
    return context;
}

static void decode_aac(const unsigned char *bytes, size_t size) {
    AVCodecContext *context = open_decoder(AV_CODEC_ID_AAC, NULL, 0);
    AVCodecParserContext *parser = av_parser_init(AV_CODEC_ID_AAC);
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    size_t at = 0;
    while (at < size) {
        int used = av_parser_parse2(parser, context, &packet->data, &packet->size, bytes + at, (int)(size - at),
                                    AV_NOPTS_VALUE, AV_NOPTS_VALUE, 0);
        if (used <= 0) break;
        at += (size_t)used;
        if (packet->size > 0) drain(context, packet, frame);
    }
    av_frame_free(&frame);
    av_packet_free(&packet);
    av_parser_close(parser);
    avcodec_free_context(&context);
}

struct opus_state { AVCodecContext *context; AVPacket *packet; AVFrame *frame; long packets; };

static void opus_packet(ogg_packet *op, void *context) {
    struct opus_state *s = context;
    if (s->packets++ == 0) {   /* OpusHead is the decoder's extradata */
        s->context = open_decoder(AV_CODEC_ID_OPUS, op->packet, (int)op->bytes);
        s->packet = av_packet_alloc();
        s->frame = av_frame_alloc();
        return;
    }
    if (s->packets == 2) return;   /* OpusTags */
    s->packet->data = op->packet;
    s->packet->size = (int)op->bytes;
    drain(s->context, s->packet, s->frame);
}

static void decode_opus(const unsigned char *bytes, size_t size) {
    static struct opus_state state;
    ogg_packets(bytes, size, opus_packet, &state);
}
#endif

#if defined(WITH_AVFORMAT)
static void decode_with_demuxer(const char *path, const char *demuxer) {
    AVFormatContext *format = NULL;
    if (avformat_open_input(&format, path, av_find_input_format(demuxer), NULL) < 0) { fprintf(stderr, "avformat: cannot open\n"); exit(1); }
    AVStream *stream = format->streams[0];
    const AVCodec *codec = avcodec_find_decoder(stream->codecpar->codec_id);
    AVCodecContext *context = avcodec_alloc_context3(codec);
    avcodec_parameters_to_context(context, stream->codecpar);
    context->thread_count = 1;
    if (!codec || avcodec_open2(context, codec, NULL) < 0) { fprintf(stderr, "avcodec: cannot open\n"); exit(1); }
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    while (av_read_frame(format, packet) >= 0) {
        drain(context, packet, frame);
        av_packet_unref(packet);
    }
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&context);
    avformat_close_input(&format);
}
#endif

int main(int argc, char **argv) {
    double main_ms = -1;
    const char *t0 = getenv("LOADCOST_T0_NS");
    if (t0) { t0_ns = atoll(t0); main_ms = since_launch_ms(); } else t0_ns = now_ns();
    double cpu_load = cpu_seconds();
    if (argc != 3 || (strcmp(argv[1], "aac") != 0 && strcmp(argv[1], "opus") != 0)) {
        fprintf(stderr, "usage: loadcost aac|opus FILE\n");
        return 2;
    }
    int aac = strcmp(argv[1], "aac") == 0;
    FILE *file = fopen(argv[2], "rb");
    if (!file) { perror(argv[2]); return 1; }
    static unsigned char bytes[8 << 20];
    size_t size = fread(bytes, 1, sizeof bytes, file);
    fclose(file);
    (void)aac; (void)size;   /* the floor's build decodes nothing */
#if defined(WITH_AVFORMAT)
    decode_with_demuxer(argv[2], aac ? "aac" : "ogg");
#else
#if defined(WITH_FAAD) || defined(WITH_AVCODEC)
    if (aac) decode_aac(bytes, size);
#endif
#if defined(WITH_OPUS) || defined(WITH_AVCODEC)
    if (!aac) decode_opus(bytes, size);
#endif
#endif
    double cpu = cpu_seconds();
    printf("main_ms=%.3f first_pcm_ms=%.3f audio_s=%.3f rms=%.4f cpu_load_s=%.4f cpu_s=%.4f hwm_kb=%ld rss_kb=%ld\n",
           main_ms, first_pcm_ms, sample_rate ? frames_decoded / sample_rate : 0.0,
           samples_seen > 0 ? sqrt(sum_squares / samples_seen) : 0.0, cpu_load, cpu, status_kb("VmHWM:"), status_kb("VmRSS:"));
    return 0;
}
