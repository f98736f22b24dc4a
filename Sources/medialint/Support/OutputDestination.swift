import FileAccess
import Foundation

/// Where a named output goes, decided before anything is written. The rule (docs/cli.md, "Output"): an existing
/// output that is not a regular file — a character or block device, a FIFO, a socket, or a link to one — is written
/// through (opened and streamed, never replaced); a regular file, or a link to one, is replaced atomically (the link
/// stays, its target is replaced); a new name is created; a directory is refused. Nothing changes its file type.
enum OutputDestination: Equatable {
    /// An open descriptor of this process: `-`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`.
    case descriptor(Int32)
    /// An existing device, FIFO or socket (the path as named, links followed by the kernel when it is opened).
    case writeThrough(String)
    /// The regular file to write beside and rename into place: links resolved, so the link itself is kept.
    case replace(String)

    static func resolve(_ path: String) throws(CLIError) -> OutputDestination {
        if let descriptor = standardDescriptor(path) {
            guard fcntl(descriptor, F_GETFD) >= 0 else { throw CLIError("cannot write \(path): descriptor \(descriptor) is not open") }
            return .descriptor(descriptor)
        }
        guard !path.isEmpty else { throw CLIError("cannot write to an empty file name") }
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR: throw CLIError("cannot write \(path): is a directory")
            case S_IFREG:
                guard let resolved = realPath(path) else { throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))") }
                return .replace(resolved)
            default: return .writeThrough(path)
            }
        }
        let code = errno
        guard code == ENOENT else { throw CLIError("cannot write \(path): \(String(cString: strerror(code)))") }
        // A new file, or a link whose target does not exist yet: the name that will be created, links followed.
        let target = try followLinks(path)
        let directory = (target as NSString).deletingLastPathComponent
        var directoryInfo = stat()
        guard stat(directory.isEmpty ? "." : directory, &directoryInfo) == 0, directoryInfo.st_mode & S_IFMT == S_IFDIR else {
            throw CLIError("cannot write \(path): no such directory \(directory.isEmpty ? "." : directory)")
        }
        return .replace(target)
    }

    /// The identity (device, inode) of what would be overwritten, when it exists: to refuse writing over an input.
    var existingIdentity: FileIdentity? {
        switch self {
        case .descriptor(let descriptor): FileIdentity(descriptor: descriptor)
        case .writeThrough(let path), .replace(let path): FileIdentity(path: path)
        }
    }

    private static func standardDescriptor(_ path: String) -> Int32? {
        switch path {
        case "-", "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default: break
        }
        for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
            let digits = path.dropFirst(prefix.count)
            if !digits.isEmpty, digits.count < 10, digits.allSatisfy(\.isASCII), let number = Int32(digits) { return number }
        }
        return nil
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Follows the links of a name that does not resolve to an existing file (at most 40, as the kernel does).
    private static func followLinks(_ path: String) throws(CLIError) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))") }
            let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
        }
        throw CLIError("cannot write \(path): too many levels of symbolic links")
    }
}
