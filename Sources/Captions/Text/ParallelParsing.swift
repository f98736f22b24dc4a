import Basics
import Foundation

/// Where a parser puts the cues it reads: an array of its own, or its part of one array's storage that parsers
/// of the other parts of the file fill at the same time (so parsing in parallel holds one copy of the cues).
struct CueOutput {
    private(set) var array: [Cue] = []
    private let region: UnsafeMutablePointer<Cue>?
    private let capacity: Int
    private var regionCount = 0
    /// True when a part held more cues than its share of the storage (they were not kept).
    private(set) var overflowed = false

    init(reserving count: Int) {
        array.reserveCapacity(count)
        region = nil
        capacity = 0
    }

    init(region: UnsafeMutablePointer<Cue>, capacity: Int) {
        self.region = region
        self.capacity = capacity
    }

    var count: Int { region == nil ? array.count : regionCount }
    var isEmpty: Bool { count == 0 }
    var last: Cue? {
        guard let region else { return array.last }
        return regionCount > 0 ? region[regionCount - 1] : nil
    }

    mutating func append(_ cue: Cue) {
        guard let region else {
            array.append(cue)
            return
        }
        guard regionCount < capacity else {
            overflowed = true
            return
        }
        (region + regionCount).initialize(to: cue)
        regionCount += 1
    }
}

/// Parsing a long caption file in parts on all cores. The parts start where the sequential parser is sure to
/// start a block, so each part parses as it would in one pass; their cues go straight into one array (each part
/// into a region as large as its count of "-->", an upper bound on its cues), closed up at the end.
enum ParallelParsing {
    /// Below this size (bytes), one pass on one core.
    static let minimumSize = 4 << 20

    /// How many parts to parse `text` in: one per core (at most 8), one for small texts.
    static func partCount(for text: ByteText) -> Int {
        ParallelSlices.count(for: text.count, minimum: minimumSize)
    }

    /// Parses the parts of `text` that begin at `starts` (the first at 0) at once. `parsePart(k, part, output)`
    /// parses part `k` into `output` and returns what else it found. Nil when a part found more cues than its
    /// region holds (then the caller parses the whole text in one pass).
    static func parse<Part>(
        _ text: ByteText, starts: [Int],
        _ parsePart: (_ index: Int, _ part: ByteText, _ output: inout CueOutput) -> Part
    ) -> (cues: [Cue], parts: [Part])? {
        let bounds = zip(starts, starts.dropFirst() + [text.count]).map { $0..<$1 }
        let capacities = ParallelSlices.map(bounds.count) { k in text.slice(bounds[k]).arrowCount() }
        let offsets = capacities.reduce(into: [0]) { $0.append($0.last! + $1) }
        var results: [(Part, count: Int, overflowed: Bool)] = []
        var complete = true
        let cues = [Cue](unsafeUninitializedCapacity: offsets.last!) { storage, initialized in
            results = ParallelSlices.map(bounds.count) { k in
                var output = CueOutput(region: storage.baseAddress! + offsets[k], capacity: capacities[k])
                let part = parsePart(k, text.slice(bounds[k]), &output)
                return (part, output.count, output.overflowed)
            }
            // Close up the regions, in order.
            var written = 0
            for k in bounds.indices {
                let count = results[k].count
                if written != offsets[k] { (storage.baseAddress! + written).moveInitialize(from: storage.baseAddress! + offsets[k], count: count) }
                written += count
                complete = complete && !results[k].overflowed
            }
            initialized = written
        }
        return complete ? (cues, results.map(\.0)) : nil
    }
}
