import FileAccess
import Foundation

/// A caption file mapped into memory, read-only. Readers parse it front to back and hand the pages they
/// have read back to the kernel, so a 50 MB file does not hold 50 MB of memory while its cues are built.
/// (A page read again later simply comes back from the page cache.)
final class MappedFile {
    let buffer: UnsafeBufferPointer<UInt8>
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Maps the regular file at `path` (an empty file maps to an empty buffer).
    init(path: String) throws(CaptionError) {
        // Opened without blocking and checked on the descriptor: a FIFO or a device is refused, never waited on.
        let file: RegularFile
        do {
            file = try RegularFile(path: path)
        } catch {
            throw CaptionError(rule: "captions.read", message: "\(path): \(error.reason)")
        }
        let descriptor = file.descriptor
        let size = Int(file.size)
        guard size > 0 else {
            buffer = UnsafeBufferPointer(start: nil, count: 0)
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw CaptionError(rule: "captions.read", message: "\(path): cannot be read: \(String(cString: strerror(errno)))")
        }
        madvise(address, size, MADV_SEQUENTIAL)
        buffer = UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: size)
    }

    deinit {
        if let base = buffer.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), buffer.count) }
    }

    /// Gives back the whole pages inside `range` (offsets in the file) to the kernel. Readers call it as they
    /// go, in steps of a megabyte (`ByteText.consumed`); parsers working on parts of the file at once each
    /// give back their own part. Only the parsing pass does this: the quick passes before it (encoding check, cue
    /// count) leave the file resident while no cue exists yet, and parsing then frees it as the cues take its place.
    func release(_ range: Range<Int>) {
        let start = (range.lowerBound + Self.pageSize - 1) / Self.pageSize * Self.pageSize
        let end = min(range.upperBound, buffer.count) / Self.pageSize * Self.pageSize
        guard end > start, let base = buffer.baseAddress else { return }
        madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, MADV_DONTNEED)
    }

    /// How far ahead of what was given back a reader goes before giving back more.
    static let releaseStep = 1 << 20
}
