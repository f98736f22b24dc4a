import CFFmpeg
import FileAccess
import Foundation

/// Work done on each decoded frame of one segment, on the thread decoding that segment.
///
/// A new instance is made for every segment: it sees the segment's frames in presentation order, then (unless the
/// segment is the last) the first frames of the next segment, which it may need to carry its state across the join.
public protocol VideoSegmentWork: AnyObject, SendableMetatype {
    associatedtype Output: Sendable
    /// A frame of the segment: what to hand to the caller for it (nil: nothing).
    func take(_ frame: VideoFrame) -> Output?
    /// A frame past the segment's end (the next segment's, decoded here as well): what to hand to the caller after
    /// the segment's own outputs (nil: nothing), and whether to see the frame after it too.
    func takeAfterEnd(_ frame: VideoFrame) -> (output: Output?, wantsMore: Bool)
}

/// Decodes a video stream in segments that start at key frames, several at once — each on a thread of its own with
/// a single-threaded decoder, which keeps every core busy where one frame-threaded decoder waits on its threads —
/// and hands the caller what each frame's work produced, in presentation order.
///
/// Frames are identical to a sequential decode: a segment starts at a key frame of the container's sample index
/// (from which the stream decodes on its own), frames shown before that key frame (an open GOP's leading pictures)
/// are left to the previous segment, whose decoder has their references. Only MP4/QuickTime files with a complete
/// sample index are split; other files, and files too short to split, are decoded as one segment with a
/// frame-threaded decoder. Memory stays flat: at most a few segments are in flight, each with a bounded queue.
public final class SegmentedVideoDecoding<Work: VideoSegmentWork>: @unchecked Sendable {
    /// The stream being decoded.
    public let stream: StreamInfo
    /// How long the file says the stream lasts (see `VideoFrameReader.statedDuration`).
    public let statedDuration: Double?
    /// The segments decoded one beside the other (1: the file is decoded sequentially).
    public var segmentCount: Int { segments.count }

    private let segments: [VideoSegment]
    private let scheduler: SegmentScheduler<Work.Output>
    private let finished = DispatchGroup()
    private var current = 0
    private var ended = false

    /// Opens `path`, plans the segments and starts decoding. `options.threads` is the number of cores to use
    /// (0: all); segments are at least `minimumSegmentSeconds` long; at most `bufferedOutputs` outputs wait in
    /// memory. `makeWork` is called on the decoding threads, once per segment. Files in `continuation` are read as one
    /// with `path`, after it (an HLS rendition's segments), and decoded from start to end.
    public init(
        path: String, followedBy continuation: [String] = [], options: VideoFrameReader.Options = .init(), minimumSegmentSeconds: Double = 2,
        bufferedOutputs: Int = 1024, makeWork: @escaping @Sendable () -> Work
    ) throws(MediaError) {
        let input = try InputContainer(path: path, followedBy: continuation)
        let avStream = try input.selectStream(options.streamIndex, kind: .video)
        let cores = options.threads > 0 ? options.threads : ProcessInfo.processInfo.activeProcessorCount
        var planned = [VideoSegment()]
        if cores > 1 && continuation.isEmpty {
            planned = VideoSegment.plan(input: input, stream: avStream, minimumSeconds: minimumSegmentSeconds)
        }
        let workers = min(cores, planned.count)
        var first = options
        if planned.count > 1 { first.threads = 1 }
        first.streamIndex = Int(avStream.pointee.index)
        let reader = try VideoFrameReader(input: input, path: path, options: first)
        stream = reader.stream
        statedDuration = reader.statedDuration
        segments = planned
        scheduler = SegmentScheduler(
            frames: planned.map(\.frames), workers: workers, capacity: max(16, bufferedOutputs / (2 * workers)), firstReader: reader)
        var single = first
        single.threads = 1
        for index in 0..<workers {
            let job = SegmentJob(path: path, options: single, segments: planned, scheduler: scheduler, makeWork: makeWork)
            let group = finished
            group.enter()
            // The readers the job opens end by the deadline bound here too (a thread does not inherit it).
            let deadline = ReadDeadline.current
            let thread = Thread {
                deadline.bind { job.run() }
                group.leave()
            }
            thread.name = "medialint.video-segment-\(index)"
            thread.start()
        }
    }

    deinit {
        scheduler.cancel()
        finished.wait()
    }

    /// The next output, in presentation order of the frames; nil after the last one.
    public func next() throws(MediaError) -> Work.Output? {
        while !ended {
            guard let queue = scheduler.queue(for: current) else { break }
            switch queue.pop() {
            case .item(let output): return output
            case .failure(let error):
                ended = true
                scheduler.cancel()
                throw error
            case nil:
                current += 1
                scheduler.consumed(upTo: current)
                if current == segments.count { ended = true }
            }
        }
        ended = true
        return nil
    }

    /// Stops decoding; later `next()` calls return nil.
    public func cancel() {
        ended = true
        scheduler.cancel()
    }

    /// Packets the decoders rejected as invalid (known once the last output has been returned).
    public var decodeErrorCount: Int { scheduler.statistics.errors }
    /// FFmpeg's message for the latest rejected packet.
    public var lastDecodeError: String? { scheduler.statistics.message }
}

/// A stretch of a video stream that decodes on its own: from a key frame to the next segment's key frame.
struct VideoSegment: Sendable {
    /// Decode timestamp of the key frame it starts at (nil: the stream's start).
    var startDTS: Int64?
    /// Decode timestamp of the key frame the next segment starts at (nil: to the stream's end).
    var endDTS: Int64?
    /// Where to seek to land on the start (see `StreamDecoder.seek`).
    var seekTarget: Int64 = 0
    /// Frames in the segment (by the sample index).
    var frames = 1

    /// Segments of at least `minimumSeconds` between key frames of the sample index; a single segment when the file
    /// is not an MP4/QuickTime file with a complete sample index (one entry per frame, increasing decode timestamps).
    static func plan(input: InputContainer, stream: UnsafeMutablePointer<AVStream>, minimumSeconds: Double) -> [VideoSegment] {
        let whole = [VideoSegment()]
        guard let format = input.context.pointee.iformat, let name = cString(format.pointee.name), name.hasPrefix("mov,") else {
            return whole
        }
        let count = avformat_index_get_entries_count(stream)
        guard count > 1, stream.pointee.nb_frames == Int64(count) else { return whole }
        let timeBase = stream.pointee.time_base
        guard timeBase.num > 0, timeBase.den > 0 else { return whole }
        let minimum = Int64(minimumSeconds * Double(timeBase.den) / Double(timeBase.num))
        var starts: [Int64] = []
        var firstEntries: [Int] = []
        var previous = Int64.min
        var last: Int64 = 0
        for i in 0..<count {
            guard let entry = avformat_index_get_entry(stream, i) else { return whole }
            let dts = entry.pointee.timestamp
            guard dts != mlav_nopts_value(), dts > previous else { return whole }
            previous = dts
            last = dts
            if i == 0 || (mlav_index_entry_is_key(entry) != 0 && dts - starts[starts.count - 1] >= minimum) {
                starts.append(dts)
                firstEntries.append(Int(i))
            }
        }
        // The last segment at least half the minimum long (else it joins the one before).
        if starts.count > 1, last - starts[starts.count - 1] < minimum / 2 {
            starts.removeLast()
            firstEntries.removeLast()
        }
        guard starts.count > 1 else { return whole }
        // Seeks aim a quarter of the shortest segment past the key frame: later than any composition delay.
        let shortest = zip(starts, starts.dropFirst().map { $0 } + [last]).map { $1 - $0 }.min() ?? minimum
        return starts.indices.map { k in
            VideoSegment(
                startDTS: k == 0 ? nil : starts[k], endDTS: k + 1 < starts.count ? starts[k + 1] : nil,
                seekTarget: starts[k] + max(1, shortest / 4),
                frames: (k + 1 < starts.count ? firstEntries[k + 1] : Int(count)) - firstEntries[k])
        }
    }
}

/// What a decoding thread hands over: an output, or the error that ended its segment.
enum SegmentEntry<Output> {
    case item(Output)
    case failure(MediaError)
}

/// Which segment each decoding thread takes next, and the queue each segment's outputs wait in.
///
/// Threads take the longest segment first (so that no thread is left alone with a long one at the end) among the
/// next `2 × workers` from the one the caller reads — except the last idle thread, which takes the earliest segment
/// not yet taken: the caller reads in order, so the segment it waits for is always being decoded, and a thread that
/// ran ahead and waits on a full queue never holds everything up. Memory stays bounded by the window and the queues.
final class SegmentScheduler<Output>: @unchecked Sendable {
    // All state is guarded by `condition`.
    private let condition = NSCondition()
    private let frames: [Int]
    private let workers: Int
    private let capacity: Int
    private var taken: [Bool]
    private var busy = 0
    private var consumed = 0
    private var queues: [Int: BoundedQueue<SegmentEntry<Output>>] = [:]
    private var cancelled = false
    private var firstReader: VideoFrameReader?
    let statistics = DecodeStatistics()

    /// `frames`: each segment's frame count (its weight).
    init(frames: [Int], workers: Int, capacity: Int, firstReader: VideoFrameReader) {
        self.frames = frames
        self.workers = workers
        self.capacity = capacity
        taken = [Bool](repeating: false, count: frames.count)
        self.firstReader = firstReader
    }

    /// The next segment to decode, its queue, and (for the first segment) the reader opened for it; nil when every
    /// segment is taken or decoding was cancelled. The thread calls `done()` when it has finished the segment.
    func claim() -> (index: Int, queue: BoundedQueue<SegmentEntry<Output>>, reader: VideoFrameReader?)? {
        condition.lock()
        defer { condition.unlock() }
        var earliest = 0
        while true {
            guard !cancelled, let first = taken.firstIndex(of: false) else { return nil }
            earliest = first
            if earliest < consumed + 2 * workers { break }
            condition.wait()
        }
        var index = earliest
        if busy < workers - 1 {
            for j in earliest..<min(frames.count, consumed + 2 * workers) where !taken[j] && frames[j] > frames[index] { index = j }
        }
        taken[index] = true
        busy += 1
        let queue = BoundedQueue<SegmentEntry<Output>>(capacity: capacity)
        queues[index] = queue
        let reader = index == 0 ? firstReader : nil
        if index == 0 { firstReader = nil }
        condition.broadcast()
        return (index, queue, reader)
    }

    /// The thread has finished its segment.
    func done() {
        condition.lock()
        busy -= 1
        condition.unlock()
    }

    /// The queue of segment `index`, waiting until a thread has taken it; nil once cancelled.
    func queue(for index: Int) -> BoundedQueue<SegmentEntry<Output>>? {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled && queues[index] == nil { condition.wait() }
        return cancelled ? nil : queues[index]
    }

    /// The caller has read every segment before `index`.
    func consumed(upTo index: Int) {
        condition.lock()
        consumed = index
        queues = queues.filter { $0.key >= index }
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        let open = Array(queues.values)
        firstReader = nil
        condition.broadcast()
        condition.unlock()
        for queue in open { queue.abandon() }
    }
}

/// One decoding thread: takes segments one after the other and decodes each from its key frame.
private final class SegmentJob<Work: VideoSegmentWork>: @unchecked Sendable {
    private let path: String
    private let options: VideoFrameReader.Options
    private let segments: [VideoSegment]
    private let scheduler: SegmentScheduler<Work.Output>
    private let makeWork: @Sendable () -> Work
    /// Frames past a segment's end decoded at most for its work.
    private static var afterEndLimit: Int { 64 }

    init(
        path: String, options: VideoFrameReader.Options, segments: [VideoSegment], scheduler: SegmentScheduler<Work.Output>,
        makeWork: @escaping @Sendable () -> Work
    ) {
        self.path = path
        self.options = options
        self.segments = segments
        self.scheduler = scheduler
        self.makeWork = makeWork
    }

    func run() {
        while let (index, queue, opened) = scheduler.claim() {
            var reader = opened
            do throws(MediaError) {
                let decoding: VideoFrameReader
                if let reader {
                    decoding = reader
                } else {
                    decoding = try VideoFrameReader(path: path, options: options)
                    reader = decoding
                }
                try decode(segments[index], with: decoding, into: queue)
            } catch {
                _ = queue.push(.failure(error))
            }
            if let reader { scheduler.statistics.add(errors: reader.decodeErrorCount, message: reader.lastDecodeError) }
            queue.finish()
            scheduler.done()
        }
    }

    private func decode(_ segment: VideoSegment, with reader: VideoFrameReader, into queue: BoundedQueue<SegmentEntry<Work.Output>>) throws(MediaError) {
        let decoder = reader.decoder
        if let start = segment.startDTS {
            decoder.watchedDTS.insert(start)
            try decoder.seek(toKeyFrameAt: start, aimingAt: segment.seekTarget)
        }
        if let end = segment.endDTS { decoder.watchedDTS.insert(end) }
        let split = segments.count > 1
        let work = makeWork()
        var afterEnd = 0
        while let frame = try reader.nextFrame() {
            if split {
                guard let timestamp = frame.timestamp else {
                    throw MediaError(.corrupt, path: path, reason: "stream #\(reader.stream.index) has a frame without a timestamp")
                }
                if let start = segment.startDTS {
                    // Frames decoded before the key frame's packet, or shown before it, belong to the segment before.
                    guard let first = decoder.watchedPTS[start] else {
                        try checkSeen(start, decoder)
                        continue
                    }
                    if timestamp < first { continue }
                }
                if let end = segment.endDTS {
                    if let next = decoder.watchedPTS[end], timestamp >= next || afterEnd > 0 {
                        let (output, wantsMore) = work.takeAfterEnd(frame)
                        if let output, !queue.push(.item(output)) { return }
                        afterEnd += 1
                        if !wantsMore || afterEnd >= Self.afterEndLimit { return }
                        continue
                    }
                    try checkSeen(end, decoder)
                }
            }
            if let output = work.take(frame), !queue.push(.item(output)) { return }
        }
    }

    /// Throws when the demuxer has gone past the key frame at `dts` without reading it (the sample index and the
    /// stream disagree: the frames could not be put together in order).
    private func checkSeen(_ dts: Int64, _ decoder: StreamDecoder) throws(MediaError) {
        guard decoder.watchedPTS[dts] == nil, let last = decoder.lastPacketDTS, last > dts else { return }
        throw MediaError(
            .corrupt, path: path,
            reason: "stream #\(decoder.stream.pointee.index): no key frame where the sample index places one (decode time \(dts))")
    }
}

/// Decode-error counts added by the decoding threads, read by the caller.
final class DecodeStatistics: @unchecked Sendable {
    private let lock = NSLock()
    private var storedErrors = 0
    private var storedMessage: String?

    func add(errors: Int, message: String?) {
        lock.withLock {
            storedErrors += errors
            if let message { storedMessage = message }
        }
    }

    var errors: Int { lock.withLock { storedErrors } }
    var message: String? { lock.withLock { storedMessage } }
}
