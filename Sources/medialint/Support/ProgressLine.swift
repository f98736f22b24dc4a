import Foundation

/// A one-line progress display on standard error, only on a terminal; redrawn at most ten times a second
/// and cleared when done. Not thread-safe: callers on several threads serialise their updates.
final class ProgressLine: @unchecked Sendable {
    private let enabled: Bool
    private let label: String
    private var lastDraw = 0.0
    private let start = Date()
    private let counting: Counting

    /// What `done` and `total` count.
    enum Counting { case seconds, files }

    init(label: String, counting: Counting = .seconds) {
        self.label = label
        self.counting = counting
        enabled = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// `done` of `total` seconds of media (or files), and the frames decoded so far (video).
    func update(done: Double, total: Double?, frames: Int? = nil) {
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
            text +=
                counting == .files
                ? String(format: " %3d%%  %ld/%ld files", Int(fraction * 100), Int(done), Int(total))
                : String(format: " %3d%%  %.1f/%.1f s", Int(fraction * 100), done, total)
            if fraction > 0.01 { text += String(format: "  ETA %.0f s", now / fraction - now) }
        } else {
            text += String(format: "  %.1f s", done)
        }
        if let frames, now > 0 { text += String(format: "  %.0f frames/s", Double(frames) / now) }
        FileHandle.standardError.write(Data(text.utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
