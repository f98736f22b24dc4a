import Foundation

/// A file written piece by piece that appears only when complete: the pieces go to a temporary file in the
/// same directory, which `commit()` flushes and renames into place. Dropped without `commit()`, nothing is left.
final class StreamingFile {
    let path: String
    private let temporary: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var committed = false
    private var failure: Int32?

    init(path: String) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        var template = Array((url.deletingLastPathComponent().path + "/.\(url.lastPathComponent).XXXXXX").utf8CString)
        descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))") }
        temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        buffer.reserveCapacity(1 << 16)
    }

    deinit {
        if !committed {
            close(descriptor)
            unlink(temporary)
        }
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func write<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes a chunk (large chunks go straight to the file, small ones are gathered first).
    func write(chunk: UnsafeBufferPointer<UInt8>) {
        if chunk.count >= 1 << 16 {
            flush()
            writeAll(UnsafeRawBufferPointer(chunk))
        } else {
            buffer.append(contentsOf: chunk)
            if buffer.count >= 1 << 16 { flush() }
        }
    }

    private func flush() {
        buffer.withUnsafeBytes { writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil, !bytes.isEmpty else { return }
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                return
            }
            offset += written
        }
    }

    /// Writes what is left and puts the file in place. (No disk flush: like cp, sed -i or ffmpeg, the file is
    /// complete or absent for every reader; surviving a power cut is the file system's business.)
    func commit() throws {
        flush()
        let mask = umask(0)
        umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
        if close(descriptor) != 0, failure == nil { failure = errno }  // a network file system may report here
        committed = true
        if let failure {
            unlink(temporary)
            throw CLIError("cannot write \(path): \(String(cString: strerror(failure)))")
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw CLIError("cannot write \(path): \(String(cString: strerror(code)))")
        }
    }
}

