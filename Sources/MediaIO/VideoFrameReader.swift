import CFFmpeg

/// Decodes a video stream frame by frame, on the calling thread.
///
/// Decoding is frame-threaded across the machine's cores. Each `nextFrame()` returns one picture; the
/// reader keeps nothing once a frame is returned, so memory stays flat with the length of the media.
/// For decoding on a thread of its own, beside the analysis, use `VideoFrameStream`.
public final class VideoFrameReader {
    /// What to decode and how.
    public struct Options: Sendable {
        /// The video stream to decode (FFmpeg's index); nil: the file's main video stream.
        public var streamIndex: Int?
        /// Decoder threads; 0: one per core.
        public var threads: Int
        /// Leave out H.264's in-loop deblocking filter on pictures of 1080p and larger: about a fifth faster, and the
        /// pictures differ from the exact decode only by the smoothing of block edges (and what that carries over
        /// to the next frames until a key frame) — block means by less than 0.5% at 1080p. Smaller pictures (cheap
        /// to decode, and their block edges weigh more: 1% on a 320×180 clip) and other codecs are decoded exactly
        /// (without its deblocking and SAO filters, HEVC drifted by 7% in mean luminance on fine texture).
        public var skipLoopFilter: Bool

        public init(streamIndex: Int? = nil, threads: Int = 0, skipLoopFilter: Bool = false) {
            self.streamIndex = streamIndex
            self.threads = threads
            self.skipLoopFilter = skipLoopFilter
        }
    }

    /// The path as given.
    public let path: String
    /// The stream being decoded, as `MediaProbe` describes it.
    public let stream: StreamInfo
    /// How long the file says the stream lasts: the stream's own duration, else the container's (when stated,
    /// not estimated from the bit rate). What decoding should cover.
    public let statedDuration: Double?

    let decoder: StreamDecoder
    private let decoded = Frame()
    private let converter = PlanarConverter()
    private let streamColor: ColorInfo
    private var lastTime: Double?

    /// Opens `path` (read as one with the files in `continuation` after it: an HLS rendition's segments).
    public convenience init(path: String, followedBy continuation: [String] = [], options: Options = Options()) throws(MediaError) {
        try self.init(input: InputContainer(path: path, followedBy: continuation), path: path, options: options)
    }

    /// Decodes from an input already open.
    init(input: InputContainer, path: String, options: Options) throws(MediaError) {
        self.path = path
        let avStream = try input.selectStream(options.streamIndex, kind: .video)
        stream = MediaProbe.describe(avStream)
        statedDuration = stream.duration ?? input.statedDuration
        streamColor = stream.video?.color ?? ColorInfo()
        decoder = try StreamDecoder(input: input, stream: avStream, threads: options.threads, skipLoopFilter: options.skipLoopFilter)
    }

    /// Packets the decoder rejected as invalid so far (they are skipped, as the ffmpeg CLI does).
    public var decodeErrorCount: Int { decoder.decodeErrorCount }
    /// FFmpeg's message for the latest rejected packet.
    public var lastDecodeError: String? { decoder.lastDecodeError }

    /// The next frame in presentation order, or nil after the last one.
    public func nextFrame() throws(MediaError) -> VideoFrame? {
        guard try decoder.receive(into: decoded.pointer) else { return nil }
        var frame = Frame()
        av_frame_move_ref(frame.pointer, decoded.pointer)
        let f = frame.pointer.pointee
        let timeBase = decoder.timeBase
        let nopts = mlav_nopts_value()
        let duration = f.pkt_duration > 0 ? seconds(f.pkt_duration, timeBase) : nil
        let timestamp = f.best_effort_timestamp != nopts ? f.best_effort_timestamp : f.pts
        let time: Double
        if timestamp != nopts {
            time = seconds(timestamp, timeBase)
        } else {
            // No timestamp at all: continue from the previous frame.
            time = (lastTime ?? 0) + (lastTime == nil ? 0 : duration ?? (stream.video?.fps).map { 1 / $0 } ?? 0)
        }
        lastTime = time

        var color = ColorInfo(
            space: f.colorspace, range: f.color_range, transfer: f.color_trc,
            primaries: f.color_primaries
        ).filling(from: streamColor)
        let format = AVPixelFormat(f.format)
        let layout: PixelLayout
        if let native = PlanarConverter.nativeLayout(of: format) {
            layout = native
        } else {
            (frame, color) = try converter.convert(frame, color: color, path: path)
            guard let converted = PlanarConverter.nativeLayout(of: AVPixelFormat(frame.pointer.pointee.format)) else {
                throw MediaError(.corrupt, path: path, reason: "unsupported picture format \(cString(av_get_pix_fmt_name(format)) ?? "?")")
            }
            layout = converted
        }
        return VideoFrame(
            frame: frame, time: time, timestamp: f.pts != nopts ? f.pts : nil, duration: duration, layout: layout, color: color)
    }
}
