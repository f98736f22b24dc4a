import Basics

/// How an edit moved times: each time a cue started or ended at goes where the edit put it; a time between two of them
/// in proportion, one beyond them by the nearest's move. For what the cue model does not hold but moves with the cues
/// (SAMI's other languages, ASS comments).
struct TimeMoves {
    private let moves: [Int64: Int64]
    private let points: [(key: Int64, value: Int64)]

    /// The moves from `before` to `after`, cue for cue; the time (ms) moved two ways when there is one.
    static func of(_ before: [Cue], _ after: [Cue]) -> Result<TimeMoves, TimeConflict> {
        var moves: [Int64: Int64] = [:]
        for (old, new) in zip(before, after) {
            for (from, to) in [(old.start, new.start), (old.end, new.end)] {
                if let known = moves[from.milliseconds], known != to.milliseconds { return .failure(TimeConflict(time: from.milliseconds)) }
                moves[from.milliseconds] = to.milliseconds
            }
        }
        return .success(TimeMoves(moves: moves, points: moves.sorted { $0.key < $1.key }))
    }

    struct TimeConflict: Error, CustomStringConvertible {
        let time: Int64
        var description: String { "\(time)" }
    }

    var isEmpty: Bool { points.isEmpty }

    /// Where `time` (ms) goes (saturating: times near the ends of `Int64` do not trap).
    func moved(_ time: Int64) -> Int64 {
        if let exact = moves[time] { return exact }
        guard let last = points.last, let first = points.first else { return time }
        // The first point after `time`, by halves: a file's every time is looked up.
        var low = 0, high = points.count
        while low < high {
            let middle = (low + high) / 2
            if points[middle].key > time { high = middle } else { low = middle + 1 }
        }
        let point = low == points.count ? last : low == 0 ? first : nil
        if let point { return Int64(saturating: (Double(time) + Double(point.value) - Double(point.key)).rounded()) }
        let (a, b) = (points[low - 1], points[low])
        let share = (Double(time) - Double(a.key)) / (Double(b.key) - Double(a.key))
        return Int64(saturating: (Double(a.value) + share * (Double(b.value) - Double(a.value))).rounded())
    }
}
