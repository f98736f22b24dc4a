import Foundation

/// Something that decodes one item at a time on the thread that asks (a frame reader, a sample reader).
protocol DecodedSource<Item>: AnyObject {
    associatedtype Item
    func nextItem() throws(MediaError) -> Item?
    var decodeErrorCount: Int { get }
    var lastDecodeError: String? { get }
}

/// Runs a `DecodedSource` on a thread of its own into a bounded queue, so the consumer works beside
/// decoding while at most `capacity` decoded items wait in memory. Releasing it (or `cancel()`) stops the
/// thread.
final class DecodingThread<Item>: @unchecked Sendable {
    private enum Entry {
        case item(Item)
        case failure(MediaError)
    }

    private let queue: BoundedQueue<Entry>
    private let decodingDone = DispatchSemaphore(value: 0)
    private let statistics = DecodeStatistics()
    private var ended = false

    /// Starts decoding `source`, which from now on is used only by the decoding thread.
    init(name: String, source: some DecodedSource<Item>, capacity: Int) {
        let queue = BoundedQueue<Entry>(capacity: capacity)
        self.queue = queue
        let handOver = HandOver(source)
        let done = decodingDone
        let statistics = statistics
        let thread = Thread {
            defer {
                queue.finish()
                done.signal()
            }
            guard let source = handOver.take() as? any DecodedSource<Item> else { return }
            do throws(MediaError) {
                while let item = try source.nextItem() {
                    guard queue.push(.item(item)) else { break }
                }
            } catch {
                _ = queue.push(.failure(error))
            }
            statistics.add(errors: source.decodeErrorCount, message: source.lastDecodeError)
        }
        thread.name = name
        thread.start()
    }

    deinit {
        queue.abandon()
        decodingDone.wait()
    }

    /// The next item, or nil after the last one.
    func next() throws(MediaError) -> Item? {
        guard !ended else { return nil }
        switch queue.pop() {
        case .item(let item): return item
        case .failure(let error):
            ended = true
            throw error
        case nil:
            ended = true
            return nil
        }
    }

    /// Stops decoding; later `next()` calls return nil.
    func cancel() {
        ended = true
        queue.abandon()
    }

    /// Packets the decoder rejected as invalid (known once the last item has been returned).
    var decodeErrorCount: Int { statistics.errors }
    /// FFmpeg's message for the latest rejected packet.
    var lastDecodeError: String? { statistics.message }
}

/// Moves the source to the decoding thread: after `take()` only that thread uses it.
private final class HandOver: @unchecked Sendable {
    private var source: AnyObject?
    init(_ source: AnyObject) { self.source = source }
    func take() -> AnyObject? {
        defer { source = nil }
        return source
    }
}
