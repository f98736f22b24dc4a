import Foundation

/// Decoded audio kept on disk for a second look: the chunks of one decoding, each with its time, in an unnamed
/// temporary file (created in the temporary directory, TMPDIR, and unlinked at once, so that nothing is left behind
/// however the process ends). A check that needs the audio again — accuracy after sync — reads it back instead of
/// decoding the media again; memory holds a chunk at a time. Mono Float32 takes 64 KB a second at 16 kHz (230 MB an
/// hour). Any number of readers may read it at once, from any thread.
public final class AudioSpool: Sendable {
    private let descriptor: Int32
    /// Bytes written (chunk headers and samples).
    public let byteCount: Int

    fileprivate init(descriptor: Int32, byteCount: Int) {
        self.descriptor = descriptor
        self.byteCount = byteCount
    }

    deinit { close(descriptor) }

    /// The chunks from the first, in the order they were written.
    public func chunks() -> Reader { Reader(spool: self) }

    /// Reads a spool's chunks in order.
    public final class Reader {
        private let spool: AudioSpool
        private var offset = 0

        fileprivate init(spool: AudioSpool) { self.spool = spool }

        /// The next chunk, or nil after the last one.
        public func nextChunk() throws(MediaError) -> AudioChunk? {
            guard offset < spool.byteCount else { return nil }
            var header = ChunkHeader(time: 0, count: 0)
            if let failure = withUnsafeMutableBytes(of: &header, read(into:)) { throw failure }
            guard header.count >= 0, header.count <= (spool.byteCount - offset) / MemoryLayout<Float>.size else {
                throw MediaError(.corrupt, path: "(decoded audio)", reason: "the decoded audio kept on disk was cut short")
            }
            var samples = [Float](repeating: 0, count: header.count)
            if let failure = samples.withUnsafeMutableBytes(read(into:)) { throw failure }
            return AudioChunk(time: header.time, samples: samples)
        }

        /// Fills `bytes` from the spool where this reader is; the error when it cannot.
        private func read(into bytes: UnsafeMutableRawBufferPointer) -> MediaError? {
            var done = 0
            while done < bytes.count {
                let got = pread(spool.descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else {
                    let reason = got < 0 ? String(cString: strerror(errno)) : "it ended early"
                    return MediaError(.unreadable, path: "(decoded audio)", reason: "the decoded audio kept on disk could not be read: \(reason)")
                }
                done += got
            }
            offset += done
            return nil
        }
    }
}

/// What precedes each chunk's samples in a spool.
private struct ChunkHeader {
    var time: Double
    var count: Int
}

/// Writes an `AudioSpool`: chunks appended as they are decoded, buffered a megabyte at a time.
public final class AudioSpoolWriter {
    private var descriptor: Int32
    private var pending: [UInt8] = []
    private var written = 0
    /// Why the spool could not be kept (a write failed: the disk is full, say); nil while all is well.
    public private(set) var failure: String?

    /// A writer of a new spool in `directory` (the temporary directory when nil); nil when no file can be made there.
    public init?(directory: String? = nil) {
        let folder = directory ?? FileManager.default.temporaryDirectory.path
        var template = Array((folder.hasSuffix("/") ? folder : folder + "/").utf8CString.dropLast()) + Array("medialint-audio-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard made >= 0 else { return nil }
        // Unnamed from the start: the file lives as long as its descriptor.
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        descriptor = made
        pending.reserveCapacity(Self.flushSize)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    private static let flushSize = 1 << 20

    /// Appends `chunk` (ignored once a write has failed).
    public func append(_ chunk: AudioChunk) {
        guard failure == nil else { return }
        var header = ChunkHeader(time: chunk.time, count: chunk.samples.count)
        withUnsafeBytes(of: &header) { pending.append(contentsOf: $0) }
        chunk.samples.withUnsafeBytes { pending.append(contentsOf: $0) }
        if pending.count >= Self.flushSize { flush() }
    }

    /// The spool of what was appended; nil (and `failure` says why) when it could not all be written.
    public func finish() -> AudioSpool? {
        flush()
        guard failure == nil, descriptor >= 0 else { return nil }
        let spool = AudioSpool(descriptor: descriptor, byteCount: written)
        descriptor = -1
        return spool
    }

    private func flush() {
        guard failure == nil, !pending.isEmpty else { return }
        var done = 0
        while done < pending.count {
            let put = pending.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, $0.count - done) }
            if put < 0, errno == EINTR { continue }
            guard put > 0 else {
                failure = put < 0 ? String(cString: strerror(errno)) : "nothing was written"
                pending = []
                return
            }
            done += put
        }
        written += done
        pending.removeAll(keepingCapacity: true)
    }
}
