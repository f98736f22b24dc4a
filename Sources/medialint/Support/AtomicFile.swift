import Foundation

/// Whole-file writes that never leave a partial file: the data goes to a temporary file in the same
/// directory, which is flushed and then renamed over the destination.
enum AtomicFile {
    static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var template = Array((directory + "/.\(url.lastPathComponent).XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw failure(path, errno) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var committed = false
        defer {
            if !committed { unlink(temporary) }
        }
        let written = data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        let writeError = errno
        let mask = umask(0)
        umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written, synced else { throw failure(path, writeError) }
        guard rename(temporary, path) == 0 else { throw failure(path, errno) }
        committed = true
    }

    private static func failure(_ path: String, _ code: Int32) -> CLIError {
        CLIError("cannot write \(path): \(String(cString: strerror(code)))")
    }
}
