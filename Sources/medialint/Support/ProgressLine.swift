import Foundation

/// A one-line progress display on standard error, only on a terminal (and not with `--quiet`); drawn at the first
/// update, then redrawn at most ten times a second, and cleared when done. The line fits the terminal's width (read
/// again when the window is resized): what does not fit is shortened or left out, so the line never wraps (a wrapped
/// line cannot be cleared). Anything else written to that terminal — a message on standard error, a report line on
/// standard output when it is the same terminal — clears the line first (`ProgressLine.clear()`); the next update
/// draws it again. Not thread-safe for one line: callers on several threads serialise their updates.
final class ProgressLine: @unchecked Sendable {
    private let enabled: Bool
    private let label: String
    private var lastDraw = -Double.infinity
    private let start = Date()
    private let counting: Counting
    private var rate = ProgressRate()

    /// What `done` and `total` count.
    enum Counting { case seconds, files, bytes }

    /// Whether a line is on the terminal now, guarded by `lock`.
    nonisolated(unsafe) private static var showing = false
    private static let lock = NSLock()

    init(label: String, counting: Counting = .seconds) {
        self.label = label
        self.counting = counting
        enabled = !Console.isQuiet && isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
        if enabled { TerminalWidth.watch() }
    }

    /// `done` of `total` seconds of media (files, bytes), the frames decoded so far (video), and what is being
    /// worked on now (a file's name).
    func update(done: Double, total: Double?, frames: Int? = nil, now working: String? = nil) {
        guard enabled else { return }
        let now = Date().timeIntervalSince(start)
        rate.add(time: now, done: done)
        guard now - lastDraw >= 0.1 else { return }
        lastDraw = now
        var parts = Parts(label: label)
        if let total, total > 0 {
            let fraction = min(1, max(0, done / total))
            parts.fraction = fraction
            switch counting {
            case .files: parts.counts = String(format: "%ld/%ld files", Int(done), Int(total))
            case .seconds: parts.counts = String(format: "%.1f/%.1f s", done, total)
            case .bytes: parts.counts = "\(Self.size(done))/\(Self.size(total))"
            }
            if let eta = rate.eta(remaining: total - done) { parts.eta = "ETA " + Self.duration(eta) }
        } else {
            parts.counts = String(format: "%.1f s", done)
        }
        if let frames, now > 0 { parts.rate = String(format: "%.0f frames/s", Double(frames) / now) }
        parts.working = working
        let text = "\r\u{1B}[2K" + Self.fit(parts, columns: TerminalWidth.columns)
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

    /// What a progress line can show, most important first: the label, how far (a bar and a percentage), the counts,
    /// the time left, the speed, the file being worked on.
    struct Parts {
        var label: String
        var fraction: Double?
        var counts: String?
        var eta: String?
        var rate: String?
        var working: String?
    }

    /// The line for `parts` in fewer than `columns` characters (the last column is left free: a line that fills it
    /// wraps on some terminals). The full line when it fits; else, in turn, without the speed, with the path cut to
    /// the room left (at least 12 characters) or without it, with a shorter bar, without the bar, without the counts,
    /// without the time left; last, cut.
    static func fit(_ parts: Parts, columns: Int) -> String {
        let room = max(1, columns - 1)
        func line(bar: Int?, counts: Bool, eta: Bool, rate: Bool, path: Int?) -> String {
            var text = parts.label
            if let fraction = parts.fraction {
                if let bar, bar > 0 {
                    let filled = Int(fraction * Double(bar))
                    text += " [" + String(repeating: "█", count: filled) + String(repeating: "·", count: bar - filled) + "]"
                }
                text += String(format: " %3d%%", Int(fraction * 100))
            }
            if counts, let value = parts.counts { text += "  " + value }
            if eta, let value = parts.eta { text += "  " + value }
            if rate, let value = parts.rate { text += "  " + value }
            if let path, path > 0, let working = parts.working { text += "  " + shortened(working, to: path) }
            return text
        }
        let candidates: [(bar: Int?, counts: Bool, eta: Bool, rate: Bool)] = [
            (24, true, true, true), (24, true, true, false), (12, true, true, false), (nil, true, true, false), (nil, false, true, false),
            (nil, false, false, false),
        ]
        for (index, candidate) in candidates.enumerated() {
            let bare = line(bar: candidate.bar, counts: candidate.counts, eta: candidate.eta, rate: candidate.rate, path: nil)
            guard bare.count <= room else { continue }
            guard let working = parts.working else { return bare }
            // The path takes what is left, up to 40 characters, when that is at least 12; the speed goes first.
            let left = room - bare.count - 2
            if left >= 12 { return bare + "  " + shortened(working, to: min(40, left)) }
            if index > 0 { return bare }
        }
        return String(line(bar: nil, counts: false, eta: false, rate: false, path: nil).prefix(room))
    }

    /// `1.2 GB`, `340 MB`, `12 kB`.
    static func size(_ bytes: Double) -> String {
        switch bytes {
        case 1e9...: String(format: "%.1f GB", bytes / 1e9)
        case 1e6...: String(format: "%.0f MB", bytes / 1e6)
        default: String(format: "%.0f kB", bytes / 1e3)
        }
    }

    /// `45 s`, `12 min`, `2 h 05 min`.
    static func duration(_ seconds: Double) -> String {
        switch seconds {
        case ..<90: String(format: "%.0f s", seconds)
        case ..<5400: String(format: "%.0f min", seconds / 60)
        default: String(format: "%.0f h %02.0f min", (seconds / 3600).rounded(.down), (seconds.truncatingRemainder(dividingBy: 3600) / 60).rounded(.down))
        }
    }

    /// A file's path, its start cut to keep it within `length` characters.
    static func shortened(_ path: String, to length: Int = 40) -> String {
        path.count <= length ? path : "…" + path.suffix(max(0, length - 1))
    }
}

/// The time left, from how fast the work has gone lately: the rate over the last 30 s of progress, counted from the
/// first progress (setting up before it — listing files, opening the store — is not work done slowly), and only once
/// it has gone on for 2 s.
struct ProgressRate {
    private var samples: [(time: Double, done: Double)] = []
    private var initial: Double?

    mutating func add(time: Double, done: Double) {
        guard let initial else {
            initial = done
            return
        }
        if samples.isEmpty {
            // The first progress: the clock starts here.
            if done > initial { samples.append((time, done)) }
            return
        }
        if let last = samples.last, time - last.time < 0.25 { return }
        samples.append((time, done))
        while samples.count > 2, time - samples[1].time >= 30 { samples.removeFirst() }
    }

    /// Seconds to do `remaining` more at the recent rate; nil until there is a rate to tell.
    func eta(remaining: Double) -> Double? {
        guard let first = samples.first, let last = samples.last, last.time - first.time >= 2, last.done > first.done else { return nil }
        return max(0, remaining) / ((last.done - first.done) / (last.time - first.time))
    }
}

/// The terminal's width in columns (standard error's window), read again when the window changes size (SIGWINCH);
/// `COLUMNS`, else 80, when it cannot be read.
enum TerminalWidth {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cached: Int?
    nonisolated(unsafe) private static var source: DispatchSourceSignal?

    static var columns: Int {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let value = read()
        cached = value
        return value
    }

    /// Starts listening for window size changes (once).
    static func watch() {
        lock.lock()
        defer { lock.unlock() }
        guard source == nil else { return }
        let signalSource = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        signalSource.setEventHandler {
            lock.lock()
            cached = nil
            lock.unlock()
        }
        signalSource.resume()
        source = signalSource
    }

    private static func read() -> Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? 80
    }
}
