import Foundation

/// The temporary files outputs are written to before they are renamed into place, and their removal when the
/// process is stopped by SIGINT, SIGTERM or SIGHUP (the signal then ends the process as it would have). A file
/// left by SIGKILL is named after its process (`.NAME.medialint-PID-XXXXXX`): the next write beside it removes it
/// once that process is gone.
enum TemporaryFiles {
    private static let slotCount = 16
    private static let slotSize = Int(PATH_MAX) + 1
    /// Paths as C strings, readable from a signal handler without allocating or locking (an empty slot starts with 0).
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<CChar> = {
        let slots = UnsafeMutablePointer<CChar>.allocate(capacity: slotCount * slotSize)
        slots.initialize(repeating: 0, count: slotCount * slotSize)
        return slots
    }()
    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed = false

    /// Creates a temporary file beside `target` (mode 0600, not yet visible under the target's name); returns its
    /// descriptor and path. Stale temporary files of `target` whose process is gone are removed first.
    static func create(beside target: String) throws(CLIError) -> (descriptor: Int32, path: String) {
        installHandlers()
        let directory = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        removeStale(of: name, in: directory.isEmpty ? "." : directory)
        let prefix = (directory.isEmpty ? "" : directory + "/") + ".\(name).medialint-\(getpid())-"
        var template = Array((prefix + "XXXXXX").utf8CString)
        // No signal between the file's creation and its registration: it could not be removed.
        var handled = terminatingSignals, previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &handled, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw CLIError("cannot write \(target): \(String(cString: strerror(errno)))") }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        register(path)
        return (descriptor, path)
    }

    /// Forgets `path` (it was renamed into place or removed).
    static func forget(_ path: String) {
        lock.withLock {
            for slot in 0..<slotCount where matches(slot, path) { slots[slot * slotSize] = 0 }
        }
    }

    /// Puts the cleaning handler back for `signal` (after a command handled it itself for a while).
    static func restoreHandler(for signal: Int32) {
        installHandlers()
        Foundation.signal(signal, removeAllAndReraise)
    }

    // MARK: - Pieces

    private static var terminatingSignals: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signal) }
        return set
    }

    private static func register(_ path: String) {
        let bytes = Array(path.utf8)
        guard bytes.count < slotSize else { return }
        lock.withLock {
            guard let slot = (0..<slotCount).first(where: { slots[$0 * slotSize] == 0 }) else { return }
            let base = slots + slot * slotSize
            for (offset, byte) in bytes.enumerated().dropFirst() { base[offset] = CChar(bitPattern: byte) }
            base[bytes.count] = 0
            base[0] = CChar(bitPattern: bytes[0])  // last: a handler sees the slot only once it is whole
        }
    }

    private static func matches(_ slot: Int, _ path: String) -> Bool {
        slots[slot * slotSize] != 0 && String(cString: slots + slot * slotSize) == path
    }

    private static func installHandlers() {
        lock.withLock {
            guard !installed else { return }
            installed = true
            // A mask inherited from the parent (some spawners pass theirs on) would keep these signals pending
            // forever: they end this process, so they are let through.
            var set = terminatingSignals
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            for signal in [SIGINT, SIGTERM, SIGHUP] {
                // A signal the caller chose to ignore (nohup, a shell's background job) stays ignored.
                let previous = Foundation.signal(signal, removeAllAndReraise)
                if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                    Foundation.signal(signal, SIG_IGN)
                }
            }
        }
    }

    /// Removes `.NAME.medialint-PID-XXXXXX` files in `directory` whose process no longer runs.
    private static func removeStale(of name: String, in directory: String) {
        let prefix = ".\(name).medialint-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for candidate in names where candidate.hasPrefix(prefix) {
            let rest = candidate.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), rest[rest.index(after: dash)...].count == 6,
                let pid = Int32(rest[..<dash]), pid > 0, pid != getpid()
            else { continue }
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            let path = directory + "/" + candidate
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid() else { continue }
            unlink(path)
        }
    }
}

/// The signal handler: removes every registered temporary file, then lets the signal end the process.
private func removeAllAndReraise(_ signal: Int32) {
    TemporaryFiles.removeAllFromHandler()
    Foundation.signal(signal, SIG_DFL)
    raise(signal)
}

extension TemporaryFiles {
    /// Only async-signal-safe calls: reads the slots and unlinks.
    fileprivate static func removeAllFromHandler() {
        for slot in 0..<slotCount where slots[slot * slotSize] != 0 {
            unlink(slots + slot * slotSize)
        }
    }
}
