import CFFmpeg

/// Demuxes one stream of an input and decodes it: the receive/send loop shared by the video and audio readers.
///
/// Packets FFmpeg cannot decode are counted and skipped (as the ffmpeg CLI does); a demuxing failure
/// (data cut short or unreadable) ends decoding with a `MediaError`.
final class StreamDecoder {
    let input: InputContainer
    let stream: UnsafeMutablePointer<AVStream>
    let codec: CodecContext
    private let packet = Packet()
    /// Whether `packet` holds a packet read but not yet sent (the first after a seek).
    private var heldPacket = false
    private var draining = false
    private var finished = false
    /// Packets or frames the decoder rejected as invalid.
    private(set) var decodeErrorCount = 0
    /// FFmpeg's message for the latest rejected packet.
    private(set) var lastDecodeError: String?
    /// Decode timestamps of key frames to note the presentation timestamps of (where segments meet).
    var watchedDTS: Set<Int64> = []
    /// The presentation timestamps of the watched packets seen so far, by decode timestamp.
    private(set) var watchedPTS: [Int64: Int64] = [:]
    /// The decode timestamp of the latest packet sent to the decoder.
    private(set) var lastPacketDTS: Int64?

    init(input: InputContainer, stream: UnsafeMutablePointer<AVStream>, threads: Int, skipLoopFilter: Bool = false) throws(MediaError) {
        self.input = input
        self.stream = stream
        codec = try CodecContext(stream: stream, path: input.path, threads: threads, skipLoopFilter: skipLoopFilter)
        input.discardAll(except: [stream.pointee.index])
    }

    /// The time base of the stream's timestamps.
    var timeBase: AVRational { stream.pointee.time_base }

    /// Decodes the next frame into `frame`. Returns false when the stream has no more frames.
    func receive(into frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> Bool {
        var consecutiveErrors = 0
        while !finished {
            let status = avcodec_receive_frame(codec.pointer, frame)
            if status >= 0 { return true }
            if status == mlav_error_eof() || (status == mlav_error_eagain() && draining) {
                finished = true
            } else if status == mlav_error_eagain() {
                try sendNextPacket()
            } else {
                noteDecodeError(status)
                consecutiveErrors += 1
                if consecutiveErrors > Self.maximumConsecutiveErrors {
                    throw MediaError(
                        .corrupt, path: input.path,
                        reason: "stream #\(stream.pointee.index) cannot be decoded", ffmpegMessage: lastDecodeError)
                }
            }
        }
        return false
    }

    private static let maximumConsecutiveErrors = 1000

    /// Feeds the decoder one packet of this stream, or the end-of-stream signal when the input is exhausted.
    private func sendNextPacket() throws(MediaError) {
        while heldPacket ? true : try input.readPacket(into: packet) {
            heldPacket = false
            guard packet.pointer.pointee.stream_index == stream.pointee.index else { continue }
            let p = packet.pointer.pointee
            if p.dts != mlav_nopts_value() {
                lastPacketDTS = p.dts
                if watchedDTS.contains(p.dts), p.flags & AV_PKT_FLAG_KEY != 0, p.pts != mlav_nopts_value() { watchedPTS[p.dts] = p.pts }
            }
            let status = avcodec_send_packet(codec.pointer, packet.pointer)
            if status < 0, status != mlav_error_eagain() { noteDecodeError(status) }
            return
        }
        draining = true
        avcodec_send_packet(codec.pointer, nil)
    }

    /// Moves the demuxer to the key frame at decode timestamp `dts` (from the stream's index), or a key frame before
    /// it: decoding starts again there. Demuxers seek by presentation time (MP4 takes the time less the stream's
    /// composition delay), so the seek aims at `target`, a little after the key frame, and is checked on the first
    /// packet read: a landing after the key frame is tried again from further back, down to the stream's start.
    func seek(toKeyFrameAt dts: Int64, aimingAt target: Int64) throws(MediaError) {
        for aim in [target, dts, Int64.min] {
            let status = av_seek_frame(input.context, stream.pointee.index, aim, AVSEEK_FLAG_BACKWARD)
            guard status >= 0 else {
                throw MediaError.ffmpeg(
                    .corrupt, path: input.path, reason: "stream #\(stream.pointee.index) cannot be read from its key frame at \(dts)",
                    code: status, context: input.context)
            }
            avcodec_flush_buffers(codec.pointer)
            (draining, finished, lastPacketDTS) = (false, false, nil)
            guard try input.readPacket(streamIndex: stream.pointee.index, into: packet) else { return }
            let first = packet.pointer.pointee.dts
            if first == mlav_nopts_value() || first <= dts || aim == Int64.min {
                heldPacket = true
                return
            }
        }
    }

    private func noteDecodeError(_ status: Int32) {
        decodeErrorCount += 1
        lastDecodeError = FFmpegLog.takeError(for: codec.pointer) ?? FFmpegLog.describe(status)
    }
}
