import Foundation
import Library

/// `check`'s progress line, in bytes of the files to check across the whole run: a file counts fully once done, and
/// in part while it is decoded (as far as the decoder is into its media), so a long video moves the line as it goes.
/// The line names the file being decoded. Safe from any thread.
final class LibraryProgress: @unchecked Sendable {
    private let line = ProgressLine(label: "check", counting: .bytes)
    private let lock = NSLock()
    private var sizes: [String: Double] = [:]
    private var total = 0.0
    private var finished = 0.0
    private var active: [String: Double] = [:]

    /// The files the run will check (their sizes make the total).
    func start(_ items: [LibraryItem]) {
        lock.lock()
        defer { lock.unlock() }
        for item in items {
            var info = stat()
            let size = stat(item.path, &info) == 0 ? Double(max(1, info.st_size)) : 1
            sizes[item.path] = size
            total += size
        }
    }

    /// `fraction` (0–1) of the file at `path` is done.
    func update(_ path: String, fraction: Double) {
        lock.lock()
        defer { lock.unlock() }
        guard let size = sizes[path] else { return }
        active[path] = size * min(1, max(0, fraction))
        draw(working: path)
    }

    /// The file at `path` is done.
    func finish(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        active[path] = nil
        finished += sizes[path] ?? 0
        draw(working: active.keys.sorted().first)
    }

    /// Clears the line at the end of the run.
    func end() { line.finish() }

    private func draw(working: String?) {
        line.update(done: finished + active.values.reduce(0, +), total: total, now: working)
    }
}
