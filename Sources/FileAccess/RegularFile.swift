#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a path could not be opened as a regular file.
public struct FileAccessError: Error, Equatable, Sendable {
    public enum Kind: Sendable {
        case notFound, directory, notRegular, denied, other
    }

    public let kind: Kind
    /// Lower-case, for "PATH: reason" messages: "no such file", "is a directory", "not a regular file (a FIFO)" …
    public let reason: String

    init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    init(errno code: Int32) {
        switch code {
        case ENOENT, ENOTDIR: self.init(.notFound, "no such file")
        case EACCES, EPERM: self.init(.denied, "permission denied")
        case ELOOP: self.init(.other, "too many levels of symbolic links")
        default: self.init(.other, String(cString: strerror(code)))
        }
    }
}

/// A regular file opened for reading, and only a regular file: the path is opened without blocking
/// (O_NONBLOCK: a FIFO with no writer, a tape or a terminal cannot stall the open) and its type checked on the
/// open descriptor, so what is read is what was checked. FIFOs, devices, sockets and directories are refused.
public final class RegularFile {
    public let descriptor: Int32
    /// The size when opened.
    public let size: Int64
    /// The modification time, in seconds since 1970.
    public let modified: Double

    public init(path: String) throws(FileAccessError) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileAccessError(errno: errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw FileAccessError(errno: code)
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(descriptor)
            throw FileAccessError(type == S_IFDIR ? .directory : .notRegular, Self.describe(type))
        }
        // Back to blocking reads (a regular file never blocks on O_NONBLOCK anyway, but a network file system may
        // return EAGAIN).
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        self.descriptor = descriptor
        size = Int64(info.st_size)
        modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    deinit { close(descriptor) }

    /// Up to `count` bytes from `offset` (fewer at the end of the file).
    public func read(count: Int, at offset: Int64) -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        bytes.withUnsafeMutableBytes { buffer in
            while done < count {
                let got = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if got < 0, errno == EINTR { continue }
                if got <= 0 { break }
                done += got
            }
        }
        bytes.removeLast(count - done)
        return bytes
    }

    /// The whole file, refused beyond `limit` bytes (`reason` then says how big it is).
    public func readAll(limit: Int) throws(FileAccessError) -> [UInt8] {
        guard size <= Int64(limit) else { throw FileAccessError(.other, "too large (\(size) bytes; at most \(limit) are read)") }
        // The file may have grown since it was opened: read to its end, still within the limit.
        var bytes = read(count: Int(size), at: 0)
        while bytes.count <= limit {
            let more = read(count: 65_536, at: Int64(bytes.count))
            if more.isEmpty { break }
            bytes += more
        }
        guard bytes.count <= limit else { throw FileAccessError(.other, "too large (more than \(limit) bytes)") }
        return bytes
    }

    /// "is a directory", "not a regular file (a FIFO)" …
    public static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "is a directory"
        case S_IFIFO: "not a regular file (a FIFO)"
        case S_IFCHR: "not a regular file (a character device)"
        case S_IFBLK: "not a regular file (a block device)"
        case S_IFSOCK: "not a regular file (a socket)"
        default: "not a regular file"
        }
    }
}
