import Captions

/// Where a cue is shown, for overlaps and gaps: its settings but its width and text alignment (two cues on the same
/// line overlap whatever their text's alignment). Cues in different regions or positions — an ASS sign at the top
/// beside dialogue, a WebVTT `line:0` cue, a TTML region of its own — are not on screen in the same place.
func placement(of cue: Cue) -> CueSettings {
    var place = cue.settings
    place.size = 100
    place.align = .center
    return place
}

/// For each cue, the cue measured against it for overlaps and gaps: of the cues shown in the same place and starting
/// no later (in the file's order when they start together), the one that ends last. In a file whose cues are in time
/// order and all in one place, that is the latest end of the cues before it in the file, which the linter keeps as it
/// goes (`predecessors` is nil); otherwise it is worked out once here, place by place in time order: an SRT whose cues
/// are out of order, or signs and dialogue.
struct ScreenNeighbours: Sendable {
    /// Per cue, the index of that cue (−1: none); nil when the file's order gives it.
    let predecessors: [Int32]?

    init(_ cues: [Cue]) {
        guard let groups = Self.groups(of: cues) else {
            predecessors = nil
            return
        }
        var result = [Int32](repeating: -1, count: cues.count)
        var latest = -1
        let order = cues.indices.sorted { (groups[$0], cues[$0].start, $0) < (groups[$1], cues[$1].start, $1) }
        for (position, index) in order.enumerated() {
            if position > 0, groups[order[position - 1]] != groups[index] { latest = -1 }
            result[index] = Int32(latest)
            if latest < 0 || cues[index].end > cues[latest].end { latest = index }
        }
        predecessors = result
    }

    /// The latest-ending cue shown before cue `index` in its place (its end, its index): `running`, the latest end of
    /// the cues before it in the file, when the file's order gives it.
    func latest(before index: Int, in cues: [Cue], running: (time: CaptionTime, cue: Int)?) -> (time: CaptionTime, cue: Int)? {
        guard let predecessors else { return running }
        let previous = Int(predecessors[index])
        return previous < 0 ? nil : (cues[previous].end, previous)
    }

    /// Each cue's place as a number (cues in one place share it), or nil when the cues are in time order and all in
    /// one place.
    static func groups(of cues: [Cue]) -> [Int]? {
        var inOrder = true
        var onePlace = true
        let firstPlace = cues.first.map(placement)
        let firstIsDefault = cues.first?.hasDefaultSettings ?? true
        for index in cues.indices.dropFirst() {
            if cues[index].start < cues[index - 1].start { inOrder = false }
            if onePlace, !(firstIsDefault && cues[index].hasDefaultSettings), placement(of: cues[index]) != firstPlace { onePlace = false }
            if !inOrder, !onePlace { break }
        }
        if inOrder, onePlace { return nil }
        var numbers: [CueSettings: Int] = [:]
        return cues.map { cue in
            let place = placement(of: cue)
            if let number = numbers[place] { return number }
            numbers[place] = numbers.count
            return numbers.count - 1
        }
    }
}
