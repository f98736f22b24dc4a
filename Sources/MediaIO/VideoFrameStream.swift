import Foundation

/// Decodes video on a thread of its own into a bounded queue, so the caller's analysis runs beside
/// decoding while at most `capacity` decoded frames wait in memory.
///
/// Opening errors are thrown by `init`; decoding errors by the `nextFrame()` call that reaches them.
/// Releasing the stream (or calling `cancel()`) stops the decoding thread.
public final class VideoFrameStream: @unchecked Sendable {
    private enum Item {
        case frame(VideoFrame)
        case failure(MediaError)
    }

    /// The stream being decoded.
    public let stream: StreamInfo
    private let queue: BoundedQueue<Item>
    private let decodingDone = DispatchSemaphore(value: 0)
    private let statistics = Statistics()
    private var ended = false

    /// Opens `path` and starts decoding.
    public convenience init(path: String, options: VideoFrameReader.Options = .init(), capacity: Int = 8) throws(MediaError) {
        let reader = try VideoFrameReader(path: path, options: options)
        self.init(source: reader, stream: reader.stream, capacity: capacity)
    }

    /// Starts decoding `source`, which from now on is used only by the decoding thread.
    init(source reader: any FrameSource, stream: StreamInfo, capacity: Int) {
        self.stream = stream
        let queue = BoundedQueue<Item>(capacity: capacity)
        self.queue = queue
        let handOver = ReaderHandOver(reader: reader)
        let done = decodingDone
        let statistics = statistics
        let thread = Thread {
            defer {
                queue.finish()
                done.signal()
            }
            guard let reader = handOver.take() else { return }
            do throws(MediaError) {
                while let frame = try reader.nextFrame() {
                    guard queue.push(.frame(frame)) else { break }
                }
            } catch {
                _ = queue.push(.failure(error))
            }
            statistics.set(errors: reader.decodeErrorCount, message: reader.lastDecodeError)
        }
        thread.name = "medialint.video-decode"
        thread.start()
    }

    deinit {
        queue.abandon()
        decodingDone.wait()
    }

    /// The next frame in presentation order, or nil after the last one.
    public func nextFrame() throws(MediaError) -> VideoFrame? {
        guard !ended else { return nil }
        switch queue.pop() {
        case .frame(let frame): return frame
        case .failure(let error):
            ended = true
            throw error
        case nil:
            ended = true
            return nil
        }
    }

    /// Stops decoding; later `nextFrame()` calls return nil.
    public func cancel() {
        ended = true
        queue.abandon()
    }

    /// Packets the decoder rejected as invalid (known once the last frame has been returned).
    public var decodeErrorCount: Int { statistics.errors }
    /// FFmpeg's message for the latest rejected packet.
    public var lastDecodeError: String? { statistics.message }
}

/// Where a `VideoFrameStream` gets its frames: a `VideoFrameReader`.
protocol FrameSource: AnyObject {
    func nextFrame() throws(MediaError) -> VideoFrame?
    var decodeErrorCount: Int { get }
    var lastDecodeError: String? { get }
}

extension VideoFrameReader: FrameSource {}

/// Moves the reader to the decoding thread: after `take()` only that thread uses it.
private final class ReaderHandOver: @unchecked Sendable {
    private var reader: (any FrameSource)?
    init(reader: any FrameSource) { self.reader = reader }
    func take() -> (any FrameSource)? {
        defer { reader = nil }
        return reader
    }
}

/// Decode-error counts written by the decoding thread, read by the consumer.
private final class Statistics: @unchecked Sendable {
    private let lock = NSLock()
    private var storedErrors = 0
    private var storedMessage: String?

    func set(errors: Int, message: String?) {
        lock.withLock {
            storedErrors = errors
            storedMessage = message
        }
    }

    var errors: Int { lock.withLock { storedErrors } }
    var message: String? { lock.withLock { storedMessage } }
}
