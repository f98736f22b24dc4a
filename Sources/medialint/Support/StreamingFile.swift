import Foundation

/// An output written piece by piece (see `OutputDestination` for where it goes). A regular file appears only when
/// complete: the pieces go to a temporary file beside it, which `commit()` renames into place (dropped without
/// `commit()`, or stopped by a signal, nothing is left). A device, FIFO or socket is written through, and an open
/// descriptor (standard output) is written to directly.
final class StreamingFile {
    let path: String
    private let destination: OutputDestination
    private let temporary: String?
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var done = false
    private var failure: Int32?
    /// The mode a replaced file keeps (a new file gets 0666 less the umask).
    private let mode: mode_t

    init(path: String) throws(CLIError) {
        self.path = path
        destination = try OutputDestination.resolve(path)
        switch destination {
        case .descriptor(let descriptor):
            self.descriptor = descriptor
            temporary = nil
            mode = 0
        case .writeThrough(let target):
            // O_NONBLOCK only for the open itself would turn "no reader yet" on a FIFO into an error; a FIFO named
            // as output waits for its reader, as a shell redirection does.
            let descriptor = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            guard descriptor >= 0 else { throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))") }
            self.descriptor = descriptor
            temporary = nil
            mode = 0
        case .replace(let target):
            var info = stat()
            if stat(target, &info) == 0 {
                mode = info.st_mode & 0o7777
            } else {
                let mask = umask(0)
                umask(mask)
                mode = 0o666 & ~mask
            }
            (descriptor, temporary) = try TemporaryFiles.create(beside: target)
        }
        buffer.reserveCapacity(1 << 16)
    }

    deinit {
        guard !done else { return }
        switch destination {
        case .descriptor: break
        case .writeThrough: close(descriptor)
        case .replace:
            close(descriptor)
            if let temporary {
                unlink(temporary)
                TemporaryFiles.forget(temporary)
            }
        }
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
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
    func commit() throws(CLIError) {
        flush()
        done = true
        switch destination {
        case .descriptor:
            // A closed pipe on standard output is the reader's choice (`| head`), not a failure.
            if let failure, failure != EPIPE { throw CLIError("cannot write \(path): \(String(cString: strerror(failure)))") }
        case .writeThrough:
            if close(descriptor) != 0, failure == nil { failure = errno }
            if let failure, failure != EPIPE { throw CLIError("cannot write \(path): \(String(cString: strerror(failure)))") }
        case .replace(let target):
            guard let temporary else { return }
            defer { TemporaryFiles.forget(temporary) }
            fchmod(descriptor, mode)
            if close(descriptor) != 0, failure == nil { failure = errno }  // a network file system may report here
            if let failure {
                unlink(temporary)
                throw CLIError("cannot write \(path): \(String(cString: strerror(failure)))")
            }
            guard rename(temporary, target) == 0 else {
                let code = errno
                unlink(temporary)
                throw CLIError("cannot write \(path): \(String(cString: strerror(code)))")
            }
        }
    }
}
