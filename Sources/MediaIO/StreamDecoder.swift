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
    private var draining = false
    private var finished = false
    /// Packets or frames the decoder rejected as invalid.
    private(set) var decodeErrorCount = 0
    /// FFmpeg's message for the latest rejected packet.
    private(set) var lastDecodeError: String?

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
        while try input.readPacket(into: packet) {
            guard packet.pointer.pointee.stream_index == stream.pointee.index else { continue }
            let status = avcodec_send_packet(codec.pointer, packet.pointer)
            if status < 0, status != mlav_error_eagain() { noteDecodeError(status) }
            return
        }
        draining = true
        avcodec_send_packet(codec.pointer, nil)
    }

    private func noteDecodeError(_ status: Int32) {
        decodeErrorCount += 1
        lastDecodeError = FFmpegLog.takeError(for: codec.pointer) ?? FFmpegLog.describe(status)
    }
}
