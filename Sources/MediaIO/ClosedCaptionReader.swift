import CFFmpeg

/// CEA-608 caption data as media carry it: `cc_data` triplets (a marker/valid/type byte, then two bytes with parity),
/// each chunk at a time on the media's timeline.
public struct ClosedCaptionChunk: Sendable, Equatable {
    /// Seconds on the media's timeline: the packet's or the video frame's presentation time.
    public var time: Double
    /// `cc_data` triplets: `0xFC` (valid, field 1) or `0xFD` (valid, field 2) then the pair; types 2 and 3 are 708.
    public var triplets: [UInt8]

    public init(time: Double, triplets: [UInt8]) {
        self.time = time
        self.triplets = triplets
    }

    /// The chunk's valid CEA-608 pairs in order, each with its field (1: CC1/CC2, 2: CC3/CC4); 708 data and
    /// triplets marked not valid are left out.
    public var pairs608: [(field: Int, first: UInt8, second: UInt8)] {
        stride(from: 0, to: triplets.count - 2, by: 3).compactMap { index in
            let header = triplets[index]
            guard header & 0x04 != 0, header & 0x03 < 2 else { return nil }
            return (Int(header & 0x03) + 1, triplets[index + 1], triplets[index + 2])
        }
    }
}

/// Where 608 data of a media file comes from.
public enum ClosedCaptionCarriage: String, Sendable, Codable {
    /// A caption track (QuickTime `c608`, FFmpeg's `eia_608`): packets of triplets, each pair sent a frame after the one
    /// before (a packet holds an SCC line's worth).
    case track
    /// The video's own frames (ATSC A/53 data in H.264/HEVC SEI or MPEG-2 user data): each frame's triplets at its time.
    case video
}

/// Reads the CEA-608 data of a caption track or of a video stream's frames.
public enum ClosedCaptionReader {
    /// The codecs whose decoders give A/53 closed-caption data with their frames.
    static let captionCarryingVideo: Set<UInt32> = [AV_CODEC_ID_H264.rawValue, AV_CODEC_ID_HEVC.rawValue, AV_CODEC_ID_MPEG2VIDEO.rawValue]

    /// Every chunk of stream `streamIndex`: an `eia_608` track's packets, or a video stream's frames' A/53 data (the
    /// video is decoded for it). Throws when the stream is neither. Files in `continuation` are read as one with `path`.
    public static func read(
        path: String, followedBy continuation: [String] = [], streamIndex: Int
    ) throws(MediaError) -> (carriage: ClosedCaptionCarriage, chunks: [ClosedCaptionChunk]) {
        let input = try InputContainer(path: path, followedBy: continuation)
        guard let stream = input.streams.first(where: { Int($0.pointee.index) == streamIndex }) else {
            throw MediaError(.noSuchStream, path: path, reason: "the file has no stream #\(streamIndex)")
        }
        let parameters = stream.pointee.codecpar.pointee
        if parameters.codec_id == AV_CODEC_ID_EIA_608 {
            return (.track, try trackChunks(input, stream))
        }
        guard parameters.codec_type == AVMEDIA_TYPE_VIDEO, captionCarryingVideo.contains(parameters.codec_id.rawValue) else {
            throw MediaError(
                .noSuchStream, path: path,
                reason: "stream #\(streamIndex) (\(codecName(parameters.codec_id))) carries no CEA-608 captions")
        }
        return (.video, try videoChunks(input, stream, frameLimit: nil))
    }

    /// Whether the first `frames` frames of video stream `streamIndex` carry A/53 caption data (as FFmpeg's
    /// "Closed Captions" says). False for codecs that cannot carry it, and for files that cannot be decoded.
    public static func videoCarriesCaptions(path: String, followedBy continuation: [String] = [], streamIndex: Int, frames: Int = 30) -> Bool {
        guard let input = try? InputContainer(path: path, followedBy: continuation),
            let stream = input.streams.first(where: { Int($0.pointee.index) == streamIndex }),
            stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
            captionCarryingVideo.contains(stream.pointee.codecpar.pointee.codec_id.rawValue)
        else { return false }
        return (try? videoChunks(input, stream, frameLimit: frames).isEmpty == false) ?? false
    }

    private static func trackChunks(_ input: InputContainer, _ stream: UnsafeMutablePointer<AVStream>) throws(MediaError) -> [ClosedCaptionChunk] {
        input.discardAll(except: [stream.pointee.index])
        let packet = Packet()
        let timeBase = stream.pointee.time_base
        var chunks: [ClosedCaptionChunk] = []
        while try input.readPacket(streamIndex: stream.pointee.index, into: packet) {
            let p = packet.pointer.pointee
            let timestamp = p.pts != mlav_nopts_value() ? p.pts : p.dts
            guard timestamp != mlav_nopts_value(), let data = p.data, p.size >= 3 else { continue }
            let count = Int(p.size) / 3 * 3
            chunks.append(ClosedCaptionChunk(time: seconds(timestamp, timeBase), triplets: Array(UnsafeBufferPointer(start: data, count: count))))
        }
        return chunks
    }

    private static func videoChunks(_ input: InputContainer, _ stream: UnsafeMutablePointer<AVStream>, frameLimit: Int?) throws(MediaError)
        -> [ClosedCaptionChunk]
    {
        // The pictures are not looked at: the loop filter is skipped (the SEI is read either way).
        let decoder = try StreamDecoder(input: input, stream: stream, threads: 0, skipLoopFilter: true)
        let frame = Frame()
        let timeBase = decoder.timeBase
        // Frames without timestamps (a raw elementary stream) follow the one before by a frame at the stream's rate.
        let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        let frameDuration = rate.num > 0 && rate.den > 0 ? Double(rate.den) / Double(rate.num) : 1001.0 / 30000
        var lastTime: Double?
        var chunks: [ClosedCaptionChunk] = []
        var frames = 0
        while try decoder.receive(into: frame.pointer) {
            defer { av_frame_unref(frame.pointer) }
            frames += 1
            let timestamp = frame.pointer.pointee.best_effort_timestamp
            let time = timestamp != mlav_nopts_value() ? seconds(timestamp, timeBase) : lastTime.map { $0 + frameDuration } ?? 0
            lastTime = time
            if let side = av_frame_get_side_data(frame.pointer, AV_FRAME_DATA_A53_CC), let data = side.pointee.data, side.pointee.size >= 3 {
                let count = Int(side.pointee.size) / 3 * 3
                chunks.append(ClosedCaptionChunk(time: time, triplets: Array(UnsafeBufferPointer(start: data, count: count))))
            }
            if let frameLimit, frames >= frameLimit { break }
        }
        return chunks
    }
}
