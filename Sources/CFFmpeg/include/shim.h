// Shim for FFmpeg's C API as Swift sees it (FFmpeg 5.1, Debian 12).
// Macros and compound literals that Swift cannot import become small static inline functions here.
// The libraries themselves are not linked: ../Libraries.c opens them on first use (see mlav_load_libraries).
#ifndef MEDIALINT_CFFMPEG_SHIM_H
#define MEDIALINT_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

/// Opens FFmpeg's libraries if not yet open (once per process; any thread). NULL when they are open, else why they
/// could not be opened (the same text on every call). Every FFmpeg function this module declares opens them itself
/// on first use, and ends the process with that text on stderr and status 2 if it cannot: call this first to report
/// the failure as an error instead.
const char *mlav_load_libraries(void);

/// AVERROR_EOF.
static inline int mlav_error_eof(void) { return AVERROR_EOF; }
/// AVERROR(EAGAIN).
static inline int mlav_error_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR(e) for a POSIX errno value.
static inline int mlav_error(int posix_errno) { return AVERROR(posix_errno); }
/// AVERROR_EXIT: stopped on purpose (interrupted).
static inline int mlav_error_exit(void) { return AVERROR_EXIT; }
/// AVERROR_INVALIDDATA.
static inline int mlav_error_invaliddata(void) { return AVERROR_INVALIDDATA; }
/// AVERROR_DECODER_NOT_FOUND.
static inline int mlav_error_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
/// AVERROR_STREAM_NOT_FOUND.
static inline int mlav_error_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
/// AV_NOPTS_VALUE.
static inline int64_t mlav_nopts_value(void) { return AV_NOPTS_VALUE; }
/// AV_TIME_BASE as an integer.
static inline int mlav_time_base(void) { return AV_TIME_BASE; }
/// AVPROBE_PADDING_SIZE: bytes of zeroes a probe buffer must carry after its data.
static inline int mlav_probe_padding_size(void) { return AVPROBE_PADDING_SIZE; }
/// AVPROBE_SCORE_RETRY: below this a format guess is a guess.
static inline int mlav_probe_score_retry(void) { return AVPROBE_SCORE_RETRY; }
/// Sets `layout` to the mono layout (AV_CHANNEL_LAYOUT_MONO).
static inline void mlav_channel_layout_mono(AVChannelLayout *layout) {
    AVChannelLayout mono = AV_CHANNEL_LAYOUT_MONO;
    *layout = mono;
}
/// Last byte position covered by an index entry (AVIndexEntry has bit fields).
static inline int64_t mlav_index_entry_end(const AVIndexEntry *entry) {
    return entry->pos + (int64_t)entry->size;
}
/// Whether an index entry is a key frame the demuxer does not discard (a point decoding can start from).
static inline int mlav_index_entry_is_key(const AVIndexEntry *entry) {
    return (entry->flags & AVINDEX_KEYFRAME) && !(entry->flags & AVINDEX_DISCARD_FRAME);
}

#endif
