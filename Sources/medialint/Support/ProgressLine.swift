import Foundation

/// A one-line progress display on standard error, only on a terminal (and not with `--quiet`); drawn at the first
/// update, then redrawn at most ten times a second, and cleared when done. Anything else written to that terminal — a
/// message on standard error, a report line on standard output when it is the same terminal — clears the line first
/// (`ProgressLine.clear()`); the next update draws it again. Not thread-safe for one line: callers on several threads serialise their updates.
final class ProgressLine: @unchecked Sendable {
    private let enabled: Bool
    private let label: String
    private var lastDraw = -Double.infinity
    private let start = Date()
    private let counting: Counting

    /// What `done` and `total` count.
    enum Counting { case seconds, files, bytes }

    /// Whether a line is on the terminal now, guarded by `lock`.
    nonisolated(unsafe) private static var showing = false
    private static let lock = NSLock()

    init(label: String, counting: Counting = .seconds) {
        self.label = label
        self.counting = counting
        enabled = !Console.isQuiet && isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// `done` of `total` seconds of media (files, bytes), the frames decoded so far (video), and what is being
    /// worked on now (a file's name).
    func update(done: Double, total: Double?, frames: Int? = nil, now working: String? = nil) {
        guard enabled else { return }
        let now = Date().timeIntervalSince(start)
        guard now - lastDraw >= 0.1 else { return }
        lastDraw = now
        var text = "\r\u{1B}[2K\(label)"
        if let total, total > 0 {
            let fraction = min(1, max(0, done / total))
            let width = 24
            let filled = Int(fraction * Double(width))
            text += " [" + String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled) + "]"
            switch counting {
            case .files: text += String(format: " %3d%%  %ld/%ld files", Int(fraction * 100), Int(done), Int(total))
            case .seconds: text += String(format: " %3d%%  %.1f/%.1f s", Int(fraction * 100), done, total)
            case .bytes: text += String(format: " %3d%%  %@/%@", Int(fraction * 100), Self.size(done), Self.size(total))
            }
            if fraction > 0.01 { text += String(format: "  ETA %.0f s", now / fraction - now) }
        } else {
            text += String(format: "  %.1f s", done)
        }
        if let frames, now > 0 { text += String(format: "  %.0f frames/s", Double(frames) / now) }
        if let working { text += "  " + Self.shortened(working) }
        Self.lock.lock()
        defer { Self.lock.unlock() }
        Self.showing = true
        Console.rawWriteError(text)
    }

    func finish() {
        guard enabled else { return }
        Self.clear()
    }

    /// Clears the progress line, if one is showing: before anything else is written to the terminal.
    static func clear() {
        lock.lock()
        defer { lock.unlock() }
        guard showing else { return }
        showing = false
        Console.rawWriteError("\r\u{1B}[2K")
    }

    /// `1.2 GB`, `340 MB`, `12 kB`.
    static func size(_ bytes: Double) -> String {
        switch bytes {
        case 1e9...: String(format: "%.1f GB", bytes / 1e9)
        case 1e6...: String(format: "%.0f MB", bytes / 1e6)
        default: String(format: "%.0f kB", bytes / 1e3)
        }
    }

    /// A file's path, its start cut to keep the line short.
    static func shortened(_ path: String) -> String { path.count <= 40 ? path : "…" + path.suffix(39) }
}
