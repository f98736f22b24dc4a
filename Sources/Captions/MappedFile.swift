import Foundation

/// A caption file mapped into memory, read-only. Readers parse it front to back and hand the pages they
/// have read back to the kernel, so a 50 MB file does not hold 50 MB of memory while its cues are built.
/// (A page read again later simply comes back from the page cache.)
final class MappedFile {
    let buffer: UnsafeBufferPointer<UInt8>
    private var releasedUpTo = 0
    private static let releaseStep = 4 << 20
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Maps the regular file at `path` (an empty file maps to an empty buffer).
    init(path: String) throws(CaptionError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw CaptionError(rule: "captions.read", message: "\(path): \(errno == ENOENT ? "no such file" : String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw CaptionError(rule: "captions.read", message: "\(path): cannot be read") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw CaptionError(rule: "captions.read",
                               message: "\(path): \(info.st_mode & S_IFMT == S_IFDIR ? "is a directory" : "not a regular file")")
        }
        let size = Int(info.st_size)
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

    /// Gives back the whole pages before `offset` (in steps of a few megabytes, so it costs nothing per call).
    /// Only the parsing pass does this: the quick passes before it (encoding check, cue count) leave the
    /// file resident while no cue exists yet, and parsing then frees it as the cues take its place.
    @inline(__always)
    func release(upTo offset: Int) {
        guard offset - releasedUpTo >= Self.releaseStep else { return }
        releaseNow(upTo: offset)
    }

    private func releaseNow(upTo offset: Int) {
        let end = offset / Self.pageSize * Self.pageSize
        guard end > releasedUpTo, let base = buffer.baseAddress else { return }
        madvise(UnsafeMutableRawPointer(mutating: base + releasedUpTo), end - releasedUpTo, MADV_DONTNEED)
        releasedUpTo = end
    }
}
