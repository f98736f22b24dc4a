import CFFmpeg
import Foundation

// Owners of libav objects: each frees its object in `deinit`, so no path leaks one.

/// An owned `AVPacket`.
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() {
        guard let packet = av_packet_alloc() else { preconditionFailure("av_packet_alloc: out of memory") }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }
}

/// An owned `AVFrame`.
final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() {
        guard let frame = av_frame_alloc() else { preconditionFailure("av_frame_alloc: out of memory") }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }
}

/// An opened decoder (`AVCodecContext`) for one stream.
final class CodecContext {
    let pointer: UnsafeMutablePointer<AVCodecContext>

    /// Opens a decoder for `stream` with frame and slice threading. `threads` 0 means one per core: libav's own
    /// automatic choice (cores + 1) measured slower on 2 cores, where the extra thread only competes.
    /// `skipLoopFilter` leaves out H.264's in-loop deblocking filter from 1080p up (see
    /// `VideoFrameReader.Options.skipLoopFilter`).
    init(stream: UnsafeMutablePointer<AVStream>, path: String, threads: Int = 1, skipLoopFilter: Bool = false) throws(MediaError) {
        try FFmpegLog.install(for: path)
        let parameters = stream.pointee.codecpar!
        let codecID = parameters.pointee.codec_id
        guard let decoder = avcodec_find_decoder(codecID) else {
            throw MediaError(
                .decoderMissing, path: path,
                reason: "stream #\(stream.pointee.index): this FFmpeg has no decoder for \(codecDescription(parameters.pointee))")
        }
        guard let context = avcodec_alloc_context3(decoder) else { preconditionFailure("avcodec_alloc_context3: out of memory") }
        pointer = context
        var status = avcodec_parameters_to_context(context, parameters)
        if status < 0 {
            throw MediaError.ffmpeg(
                .corrupt, path: path, reason: "stream #\(stream.pointee.index): unusable codec parameters",
                code: status, context: context)
        }
        context.pointee.pkt_timebase = stream.pointee.time_base
        context.pointee.thread_count = Int32(clamping: threads > 0 ? threads : ProcessInfo.processInfo.activeProcessorCount)
        context.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
        if skipLoopFilter, codecID == AV_CODEC_ID_H264, Int(parameters.pointee.width) * Int(parameters.pointee.height) >= 1920 * 1080 {
            context.pointee.skip_loop_filter = AVDISCARD_ALL
        }
        // Pictures larger than twice 8K UHD are refused by the decoder rather than allocated (a crafted header can
        // claim any size).
        context.pointee.max_pixels = Int64(7680 * 4320 * 2)
        status = avcodec_open2(context, decoder, nil)
        if status < 0 {
            throw MediaError.ffmpeg(
                .decoderMissing, path: path,
                reason: "stream #\(stream.pointee.index): the \(codecDescription(parameters.pointee)) decoder could not be opened",
                code: status, context: context)
        }
    }

    deinit {
        _ = FFmpegLog.takeError(for: pointer)
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }
}

/// FFmpeg's short name for a codec id, e.g. `h264`; `unknown` for an id FFmpeg does not know (as ffprobe says).
func codecName(_ id: AVCodecID) -> String {
    guard avcodec_descriptor_get(id) != nil else { return "unknown" }
    return cString(avcodec_get_name(id)) ?? "unknown"
}

/// The stream's codec tag as text (e.g. `avc1`, `ZZZZ`), when it has one.
func codecTag(_ parameters: AVCodecParameters) -> String? {
    guard parameters.codec_tag != 0 else { return nil }
    var buffer = [CChar](repeating: 0, count: 32)
    av_fourcc_make_string(&buffer, parameters.codec_tag)
    return string(fromNulTerminated: buffer)
}

/// How error messages name a stream's codec: `h264`, or `unknown codec (tag 'ZZZZ')`.
func codecDescription(_ parameters: AVCodecParameters) -> String {
    let name = codecName(parameters.codec_id)
    guard name == "unknown" else { return name }
    return "unknown codec" + (codecTag(parameters).map { " (tag '\($0)')" } ?? "")
}

/// Seconds from a timestamp in a time base.
func seconds(_ timestamp: Int64, _ timeBase: AVRational) -> Double {
    Double(timestamp) * Double(timeBase.num) / Double(timeBase.den)
}
