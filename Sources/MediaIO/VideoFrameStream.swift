import Foundation

/// Decodes video on a thread of its own into a bounded queue, so the caller's analysis runs beside
/// decoding while at most `capacity` decoded frames wait in memory.
///
/// Opening errors are thrown by `init`; decoding errors by the `nextFrame()` call that reaches them.
/// Releasing the stream (or calling `cancel()`) stops the decoding thread.
public final class VideoFrameStream: @unchecked Sendable {
    /// The stream being decoded.
    public let stream: StreamInfo
    /// How long the file says the stream lasts (see `VideoFrameReader.statedDuration`).
    public let statedDuration: Double?
    private let thread: DecodingThread<VideoFrame>

    /// Opens `path` and starts decoding.
    public convenience init(path: String, options: VideoFrameReader.Options = .init(), capacity: Int = 8) throws(MediaError) {
        let reader = try VideoFrameReader(path: path, options: options)
        self.init(source: reader, stream: reader.stream, statedDuration: reader.statedDuration, capacity: capacity)
    }

    /// Starts decoding `source`, which from now on is used only by the decoding thread.
    init(source: some DecodedSource<VideoFrame>, stream: StreamInfo, statedDuration: Double? = nil, capacity: Int) {
        self.stream = stream
        self.statedDuration = statedDuration
        thread = DecodingThread(name: "medialint.video-decode", source: source, capacity: capacity)
    }

    /// The next frame in presentation order, or nil after the last one.
    public func nextFrame() throws(MediaError) -> VideoFrame? { try thread.next() }

    /// Stops decoding; later `nextFrame()` calls return nil.
    public func cancel() { thread.cancel() }

    /// Packets the decoder rejected as invalid (known once the last frame has been returned).
    public var decodeErrorCount: Int { thread.decodeErrorCount }
    /// FFmpeg's message for the latest rejected packet.
    public var lastDecodeError: String? { thread.lastDecodeError }
}

extension VideoFrameReader: DecodedSource {
    func nextItem() throws(MediaError) -> VideoFrame? { try nextFrame() }
}

/// Decodes audio to mono samples (as `AudioSampleReader` does) on a thread of its own, so the caller's
/// analysis runs beside decoding and resampling while at most `capacity` chunks wait in memory.
public final class AudioSampleStream: @unchecked Sendable {
    /// The stream being decoded.
    public let stream: StreamInfo
    /// Output sample rate in Hz.
    public let sampleRate: Int
    private let thread: DecodingThread<AudioChunk>

    /// Opens `path` (with the files in `continuation` after it, read as one) and starts decoding. Chunks that follow
    /// each other without a gap are handed over joined, about `chunkSeconds` at a time (one decoded frame each would
    /// cost more in hand-overs than the work they carry).
    public init(
        path: String, followedBy continuation: [String] = [], options: AudioSampleReader.Options = .init(), chunkSeconds: Double = 0.5,
        capacity: Int = 8
    ) throws(MediaError) {
        let reader = try AudioSampleReader(path: path, followedBy: continuation, options: options)
        stream = reader.stream
        sampleRate = reader.sampleRate
        let joined = JoinedChunks(reader: reader, minimumCount: max(1, Int(chunkSeconds * Double(reader.sampleRate))))
        thread = DecodingThread(name: "medialint.audio-decode", source: joined, capacity: capacity)
    }

    /// The next chunk of samples, or nil after the last one.
    public func nextChunk() throws(MediaError) -> AudioChunk? { try thread.next() }

    /// Stops decoding; later `nextChunk()` calls return nil.
    public func cancel() { thread.cancel() }

    /// Packets the decoder rejected as invalid (known once the last chunk has been returned).
    public var decodeErrorCount: Int { thread.decodeErrorCount }
}

/// A sample reader's chunks joined while each starts where the one before ended (within half a sample).
private final class JoinedChunks: DecodedSource {
    private let reader: AudioSampleReader
    private let minimumCount: Int
    private var pending: AudioChunk?

    init(reader: AudioSampleReader, minimumCount: Int) {
        self.reader = reader
        self.minimumCount = minimumCount
    }

    func nextItem() throws(MediaError) -> AudioChunk? {
        var joined = pending
        pending = nil
        let rate = Double(reader.sampleRate)
        while joined.map({ $0.samples.count < minimumCount }) ?? true {
            guard let next = try reader.nextChunk() else { break }
            guard var current = joined else {
                joined = next
                continue
            }
            if abs(current.time + Double(current.samples.count) / rate - next.time) <= 0.5 / rate {
                joined = nil  // `current` holds the only reference: appending does not copy
                current.samples += next.samples
                joined = current
            } else {
                pending = next
                break
            }
        }
        return joined
    }

    var decodeErrorCount: Int { reader.decodeErrorCount }
    var lastDecodeError: String? { reader.lastDecodeError }
}
