// FFmpeg's libraries, opened on first use rather than linked.
//
// Linking libavformat and libavcodec loads about 150 shared libraries (every codec's) and binds their symbols before
// main: about 60 ms of every start, of a command that reads captions only as much as of one that decodes video. Here
// each FFmpeg function MediaIO calls is defined with FFmpeg's own prototype (its header declares it, so a prototype
// that differs does not compile) and calls through a table filled from the libraries the first time any of them is
// needed. The file names are the sonames of the headers compiled against, so the ABI is the one the code was built for.
#include "shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// FFmpeg's functions as MediaIO calls them: VALUE(result, name, (parameters), (arguments)) and VOID(name, …).
#define MLAV_FUNCTIONS(VALUE, VOID) \
    VALUE(int, av_channel_layout_check, (const AVChannelLayout *channel_layout), (channel_layout)) \
    VALUE(int, av_channel_layout_copy, (AVChannelLayout *dst, const AVChannelLayout *src), (dst, src)) \
    VOID(av_channel_layout_default, (AVChannelLayout *ch_layout, int nb_channels), (ch_layout, nb_channels)) \
    VALUE(int, av_channel_layout_describe, (const AVChannelLayout *channel_layout, char *buf, size_t buf_size), \
        (channel_layout, buf, buf_size)) \
    VOID(av_channel_layout_uninit, (AVChannelLayout *channel_layout), (channel_layout)) \
    VALUE(const char *, av_color_primaries_name, (enum AVColorPrimaries primaries), (primaries)) \
    VALUE(const char *, av_color_range_name, (enum AVColorRange range), (range)) \
    VALUE(const char *, av_color_space_name, (enum AVColorSpace space), (space)) \
    VALUE(const char *, av_color_transfer_name, (enum AVColorTransferCharacteristic transfer), (transfer)) \
    VALUE(const AVInputFormat *, av_demuxer_iterate, (void **opaque), (opaque)) \
    VOID(av_dict_free, (AVDictionary **m), (m)) \
    VALUE(AVDictionaryEntry *, av_dict_get, (const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags), \
        (m, key, prev, flags)) \
    VALUE(int, av_dict_set, (AVDictionary **pm, const char *key, const char *value, int flags), (pm, key, value, flags)) \
    VALUE(double, av_display_rotation_get, (const int32_t matrix[9]), (matrix)) \
    VALUE(const char *, av_disposition_to_string, (int disposition), (disposition)) \
    VALUE(int, av_find_best_stream, \
        (AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream, const AVCodec **decoder_ret, int flags), \
        (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags)) \
    VALUE(char *, av_fourcc_make_string, (char *buf, uint32_t fourcc), (buf, fourcc)) \
    VALUE(AVFrame *, av_frame_alloc, (void), ()) \
    VALUE(int, av_frame_copy_props, (AVFrame *dst, const AVFrame *src), (dst, src)) \
    VOID(av_frame_free, (AVFrame **frame), (frame)) \
    VALUE(int, av_frame_get_buffer, (AVFrame *frame, int align), (frame, align)) \
    VALUE(AVFrameSideData *, av_frame_get_side_data, (const AVFrame *frame, enum AVFrameSideDataType type), (frame, type)) \
    VOID(av_frame_move_ref, (AVFrame *dst, AVFrame *src), (dst, src)) \
    VOID(av_frame_unref, (AVFrame *frame), (frame)) \
    VOID(av_freep, (void *ptr), (ptr)) \
    VALUE(enum AVPixelFormat, av_get_pix_fmt, (const char *name), (name)) \
    VALUE(const char *, av_get_pix_fmt_name, (enum AVPixelFormat pix_fmt), (pix_fmt)) \
    VALUE(const char *, av_get_sample_fmt_name, (enum AVSampleFormat sample_fmt), (sample_fmt)) \
    VALUE(int, av_log_format_line2, \
        (void *ptr, int level, const char *fmt, va_list vl, char *line, int line_size, int *print_prefix), \
        (ptr, level, fmt, vl, line, line_size, print_prefix)) \
    VALUE(int, av_log_get_level, (void), ()) \
    VOID(av_log_set_callback, (void (*callback)(void *, int, const char *, va_list)), (callback)) \
    VOID(av_log_set_level, (int level), (level)) \
    VALUE(void *, av_malloc, (size_t size), (size)) \
    VALUE(int, av_opt_set_double, (void *obj, const char *name, double val, int search_flags), (obj, name, val, search_flags)) \
    VALUE(int, av_opt_set_int, (void *obj, const char *name, int64_t val, int search_flags), (obj, name, val, search_flags)) \
    VALUE(AVPacket *, av_packet_alloc, (void), ()) \
    VOID(av_packet_free, (AVPacket **pkt), (pkt)) \
    VALUE(uint8_t *, av_packet_get_side_data, (const AVPacket *pkt, enum AVPacketSideDataType type, size_t *size), \
        (pkt, type, size)) \
    VOID(av_packet_unref, (AVPacket *pkt), (pkt)) \
    VALUE(const AVPixFmtDescriptor *, av_pix_fmt_desc_get, (enum AVPixelFormat pix_fmt), (pix_fmt)) \
    VALUE(int, av_probe_input_buffer2, \
        (AVIOContext *pb, const AVInputFormat **fmt, const char *url, void *logctx, unsigned int offset, unsigned int max_probe_size), \
        (pb, fmt, url, logctx, offset, max_probe_size)) \
    VALUE(const AVInputFormat *, av_probe_input_format3, (const AVProbeData *pd, int is_opened, int *score_ret), \
        (pd, is_opened, score_ret)) \
    VALUE(int, av_read_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt)) \
    VALUE(int, av_seek_frame, (AVFormatContext *s, int stream_index, int64_t timestamp, int flags), \
        (s, stream_index, timestamp, flags)) \
    VALUE(uint8_t *, av_stream_get_side_data, (const AVStream *stream, enum AVPacketSideDataType type, size_t *size), \
        (stream, type, size)) \
    VALUE(int, av_strerror, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size)) \
    VALUE(AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec)) \
    VALUE(int, avcodec_decode_subtitle2, (AVCodecContext *avctx, AVSubtitle *sub, int *got_sub_ptr, AVPacket *avpkt), \
        (avctx, sub, got_sub_ptr, avpkt)) \
    VALUE(const AVCodecDescriptor *, avcodec_descriptor_get, (enum AVCodecID id), (id)) \
    VALUE(const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id)) \
    VOID(avcodec_flush_buffers, (AVCodecContext *avctx), (avctx)) \
    VOID(avcodec_free_context, (AVCodecContext **avctx), (avctx)) \
    VALUE(const char *, avcodec_get_name, (enum AVCodecID id), (id)) \
    VALUE(int, avcodec_open2, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options), (avctx, codec, options)) \
    VALUE(int, avcodec_parameters_to_context, (AVCodecContext *codec, const AVCodecParameters *par), (codec, par)) \
    VALUE(const char *, avcodec_profile_name, (enum AVCodecID codec_id, int profile), (codec_id, profile)) \
    VALUE(int, avcodec_receive_frame, (AVCodecContext *avctx, AVFrame *frame), (avctx, frame)) \
    VALUE(int, avcodec_send_packet, (AVCodecContext *avctx, const AVPacket *avpkt), (avctx, avpkt)) \
    VALUE(AVFormatContext *, avformat_alloc_context, (void), ()) \
    VOID(avformat_close_input, (AVFormatContext **s), (s)) \
    VALUE(int, avformat_find_stream_info, (AVFormatContext *ic, AVDictionary **options), (ic, options)) \
    VOID(avformat_free_context, (AVFormatContext *s), (s)) \
    VALUE(int, avformat_index_get_entries_count, (const AVStream *st), (st)) \
    VALUE(const AVIndexEntry *, avformat_index_get_entry, (AVStream *st, int idx), (st, idx)) \
    VALUE(int, avformat_open_input, (AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options), \
        (ps, url, fmt, options)) \
    VALUE(AVIOContext *, avio_alloc_context, \
        (unsigned char *buffer, int buffer_size, int write_flag, void *opaque, \
            int (*read_packet)(void *opaque, uint8_t *buf, int buf_size), \
            int (*write_packet)(void *opaque, uint8_t *buf, int buf_size), \
            int64_t (*seek)(void *opaque, int64_t offset, int whence)), \
        (buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek)) \
    VOID(avio_context_free, (AVIOContext **s), (s)) \
    VALUE(int, avio_open2, (AVIOContext **s, const char *url, int flags, const AVIOInterruptCB *int_cb, AVDictionary **options), \
        (s, url, flags, int_cb, options)) \
    VOID(avsubtitle_free, (AVSubtitle *sub), (sub)) \
    VALUE(int, swr_alloc_set_opts2, \
        (struct SwrContext **ps, AVChannelLayout *out_ch_layout, enum AVSampleFormat out_sample_fmt, int out_sample_rate, \
            AVChannelLayout *in_ch_layout, enum AVSampleFormat in_sample_fmt, int in_sample_rate, int log_offset, void *log_ctx), \
        (ps, out_ch_layout, out_sample_fmt, out_sample_rate, in_ch_layout, in_sample_fmt, in_sample_rate, log_offset, log_ctx)) \
    VALUE(int, swr_convert, (struct SwrContext *s, uint8_t **out, int out_count, const uint8_t **in, int in_count), \
        (s, out, out_count, in, in_count)) \
    VOID(swr_free, (struct SwrContext **s), (s)) \
    VALUE(int64_t, swr_get_delay, (struct SwrContext *s, int64_t base), (s, base)) \
    VALUE(int, swr_get_out_samples, (struct SwrContext *s, int in_samples), (s, in_samples)) \
    VALUE(int, swr_init, (struct SwrContext *s), (s)) \
    VOID(sws_freeContext, (struct SwsContext *swsContext), (swsContext)) \
    VALUE(struct SwsContext *, sws_getCachedContext, \
        (struct SwsContext *context, int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, \
            enum AVPixelFormat dstFormat, int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param), \
        (context, srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param)) \
    VALUE(const int *, sws_getCoefficients, (int colorspace), (colorspace)) \
    VALUE(int, sws_scale_frame, (struct SwsContext *c, AVFrame *dst, const AVFrame *src), (c, dst, src)) \
    VALUE(int, sws_setColorspaceDetails, \
        (struct SwsContext *c, const int inv_table[4], int srcRange, const int table[4], int dstRange, int brightness, \
            int contrast, int saturation), \
        (c, inv_table, srcRange, table, dstRange, brightness, contrast, saturation))

// The libraries by soname, each after those it needs.
static const char *const library_names[] = {
    "libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
    "libswresample.so." AV_STRINGIFY(LIBSWRESAMPLE_VERSION_MAJOR),
    "libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR),
    "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
    "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
};
enum { library_count = sizeof library_names / sizeof library_names[0] };

#define MLAV_POINTER(result, name, parameters, arguments) result(*name) parameters;
#define MLAV_VOID_POINTER(name, parameters, arguments) void(*name) parameters;
static struct {
    MLAV_FUNCTIONS(MLAV_POINTER, MLAV_VOID_POINTER)
} functions;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
// Empty once the libraries and every function are found; else why not.
static char failure[1024];

// The first library of `handles` that defines `name`, or NULL.
static void *find(void *const handles[], const char *name) {
    for (int index = library_count - 1; index >= 0; index--) {
        void *symbol = dlsym(handles[index], name);
        if (symbol != NULL) return symbol;
    }
    return NULL;
}

static void load(void) {
    void *handles[library_count];
    for (int index = 0; index < library_count; index++) {
        handles[index] = dlopen(library_names[index], RTLD_NOW | RTLD_LOCAL);
        if (handles[index] == NULL) {
            const char *reason = dlerror();
            snprintf(failure, sizeof failure, "FFmpeg's %s could not be opened (%s)", library_names[index],
                reason != NULL ? reason : "no reason given");
            return;
        }
    }
#define MLAV_FIND(name)                                                                                              \
    if ((*(void **)&functions.name = find(handles, #name)) == NULL) {                                                \
        snprintf(failure, sizeof failure, "FFmpeg's libraries have no function %s", #name);                          \
        return;                                                                                                      \
    }
#define MLAV_FIND_VALUE(result, name, parameters, arguments) MLAV_FIND(name)
#define MLAV_FIND_VOID(name, parameters, arguments) MLAV_FIND(name)
    MLAV_FUNCTIONS(MLAV_FIND_VALUE, MLAV_FIND_VOID)
}

const char *mlav_load_libraries(void) {
    pthread_once(&load_once, load);
    return failure[0] == 0 ? NULL : failure;
}

// A function called before mlav_load_libraries reported success and with the libraries missing: nothing can go on.
static void ensure_loaded(void) {
    const char *reason = mlav_load_libraries();
    if (reason == NULL) return;
    fprintf(stderr, "medialint: %s\n", reason);
    exit(2);
}

#define MLAV_DEFINE(result, name, parameters, arguments) \
    result name parameters {                             \
        ensure_loaded();                                 \
        return functions.name arguments;                 \
    }
#define MLAV_DEFINE_VOID(name, parameters, arguments) \
    void name parameters {                            \
        ensure_loaded();                              \
        functions.name arguments;                     \
    }
MLAV_FUNCTIONS(MLAV_DEFINE, MLAV_DEFINE_VOID)
