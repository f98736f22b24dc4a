import Foundation

/// Where output goes while it is being made: chunks handed over are written on a thread of their own, so that
/// making the next chunk and writing the last one overlap. At most a few chunks wait (memory stays flat); their
/// buffers come back to be filled again.
final class OutputSink: @unchecked Sendable {
    /// A chunk on its way: owned by the writing thread until it is written, then given back.
    private final class Chunk: @unchecked Sendable {
        var bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    private let queue = DispatchQueue(label: "medialint.output")
    private let slots = DispatchSemaphore(value: 4)
    private let lock = NSLock()
    private var spare: [[UInt8]] = []
    private let writeOut: (UnsafeBufferPointer<UInt8>) -> Void

    /// `writeOut` writes bytes where they go (it runs on the sink's thread, one chunk at a time, in order).
    init(_ writeOut: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.writeOut = writeOut
    }

    /// Takes `bytes` to be written, leaving in their place an empty buffer with capacity to fill again.
    func take(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        slots.wait()
        var empty = lock.withLock { spare.popLast() } ?? []
        swap(&empty, &bytes)
        let chunk = Chunk(empty)
        queue.async { [self] in
            chunk.bytes.withUnsafeBufferPointer { writeOut($0) }
            chunk.bytes.removeAll(keepingCapacity: true)
            let buffer = chunk.bytes
            chunk.bytes = []
            lock.withLock { spare.append(buffer) }
            slots.signal()
        }
    }

    /// Writes a copy of borrowed bytes.
    func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        var copy = lock.withLock { spare.popLast() } ?? []
        copy.append(contentsOf: bytes)
        take(&copy)
    }

    /// Waits until everything handed over is written.
    func finish() {
        queue.sync {}
    }
}
