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

    /// Where `time` (ms) goes.
    func moved(_ time: Int64) -> Int64 {
        if let exact = moves[time] { return exact }
        guard let last = points.last, let first = points.first else { return time }
        guard let above = points.firstIndex(where: { $0.key > time }) else { return time + last.value - last.key }
        guard above > 0 else { return time + first.value - first.key }
        let (a, b) = (points[above - 1], points[above])
        let share = Double(time - a.key) / Double(b.key - a.key)
        return a.value + Int64((share * Double(b.value - a.value)).rounded())
    }
}
