/// Regular patterns (ITU-R BT.1702 and Ofcom's guidance on patterns): clearly discernible light and dark stripes —
/// straight, curved, a checkerboard, radial — with more than five light–dark pairs, over more than a quarter of the
/// area basis, shown for at least half a second; more harmful when they move, oscillate, flash or reverse.
///
/// How it looks, cheaply: one row through the middle of each block row and one column through the middle of each
/// block column are followed in relative luminance; a Schmitt trigger around their running mean finds light and
/// dark runs, and a *run of stripes* is a sequence of alternating light and dark whose light parts are bright
/// (at least 0.25: 50 cd/m² at 200 cd/m² white), whose dark parts are at most half as bright, and whose spacing is
/// regular (each pair within 45% of the one before and changing smoothly, so rings, spirals and fans count as well as
/// straight lines), and that the neighbouring line repeats (random texture makes regular runs by chance, not twice).
/// The blocks under runs of at least three pairs that agree with the next line's are the pattern, and it needs six
/// pairs along some line. Pictures are looked at every tenth of a second.
final class PatternDetector {
    /// What one look found.
    struct Sighting: Sendable {
        /// The most light–dark pairs in one run.
        var pairs: Int
        /// Fraction of the frame and of the worst 10° field covered.
        var frameArea: Double
        var fieldArea: Double
        var kind: PatternKind
        /// Mean absolute change of the sampled luminance under the pattern since the previous look, relative to
        /// the pattern's contrast (0 for a still pattern).
        var change: Double
    }

    /// Light parts at least this bright (50 cd/m² of a 200 cd/m² white).
    static let lightLevel: Float = 0.25
    /// Dark parts at most this fraction of the light parts (Michelson contrast at least 1/3).
    static let darkRatio: Float = 0.5
    /// Each pair's length within this fraction of the previous pair's…
    static let regularity: Float = 0.45
    /// …and its change from the previous pair's within this fraction of the same change the pair before.
    static let smoothness: Float = 0.25
    /// Pairs at least this many samples long (shorter is texture, not stripes: at 1080p samples are 2 px apart).
    static let shortestPeriod = 4
    /// More than five pairs.
    static let minimumPairs = 6
    /// A line crossing at least this many regular pairs is part of a pattern (a ring's chord or the edge of a fan
    /// crosses fewer than its middle does); the pattern itself needs `minimumPairs` along some line.
    static let partPairs = 3
    /// Runs on neighbouring lines agree when their periods are within this fraction of each other…
    static let coherence: Float = 0.2
    /// …and a run's stretch correlates with its neighbouring line's at least this well.
    static let likeness: Float = 0.5

    /// The blocks (and the code value → relative luminance table) of the pictures looked at.
    let grid: BlockMeasurer
    /// Samples along a row or column: every `step`-th pixel (periods of 4 steps and more are seen).
    let step: Int
    private var line: [Float] = []
    private var segments: [Segment] = []
    private var lineRuns: [Run] = []
    private var mask: [Int8]
    /// Per block, the period of the run of at least `partPairs` crossing it along its row, and along its column
    /// (0: none); whether a neighbouring line's run agrees (coherent); the runs' periods; the long runs.
    private var rowPeriod: [Float]
    private var columnPeriod: [Float]
    private var rowCrossed: [Bool]
    private var columnCrossed: [Bool]
    private var periods: [Float] = []
    private var longRuns: [(alongRows: Bool, line: Int, first: Int, last: Int, pairs: Int)] = []
    /// This look's runs of at least `partPairs`, by line.
    private var found: [(alongRows: Bool, line: Int, run: Run)] = []
    /// The previous look's samples of every row and column (for change), and whether it saw a pattern.
    private var previous: [Float] = []
    private var current: [Float] = []
    private var previousSeen = false

    init(grid: BlockMeasurer) {
        self.grid = grid
        step = max(1, min(grid.width, grid.height) / 540)
        let blocks = grid.columns * grid.rows
        mask = [Int8](repeating: 0, count: blocks)
        rowCrossed = [Bool](repeating: false, count: blocks)
        columnCrossed = rowCrossed
        rowPeriod = [Float](repeating: 0, count: blocks)
        columnPeriod = rowPeriod
    }

    /// Looks at a picture's luma plane (of the grid's size).
    func look(at plane: SamplePlane, area: inout AreaMeter) -> Sighting? {
        grid.linearTable.withUnsafeBufferPointer { linear in
            plane.bytesPerSample == 1
                ? look(at: plane, UInt8.self, linear: linear, area: &area) : look(at: plane, UInt16.self, linear: linear, area: &area)
        }
    }

    private func look<Sample: FixedWidthInteger>(
        at plane: SamplePlane, _: Sample.Type, linear: UnsafeBufferPointer<Float>, area: inout AreaMeter
    ) -> Sighting? {
        let mask = linear.count - 1
        let (columns, rows, blockSize) = (grid.columns, grid.rows, grid.blockSize)
        let width = min(grid.width, plane.width), height = min(grid.height, plane.height)
        current.removeAll(keepingCapacity: true)
        for i in self.mask.indices {
            self.mask[i] = 0
            rowPeriod[i] = 0
            columnPeriod[i] = 0
        }
        periods.removeAll(keepingCapacity: true)
        longRuns.removeAll(keepingCapacity: true)
        found.removeAll(keepingCapacity: true)
        var light: Float = 0, dark: Float = 0, counted: Float = 0
        // Rows: along x, one through the middle of each block row.
        for blockRow in 0..<rows {
            let y = min(height - 1, blockRow * blockSize + blockSize / 2)
            let row = (plane.baseAddress + y * plane.bytesPerRow).assumingMemoryBound(to: Sample.self)
            line.removeAll(keepingCapacity: true)
            var x = 0
            while x < width {
                line.append(linear[Int(row[x]) & mask])
                x += step
            }
            current.append(contentsOf: line)
            line.withUnsafeBufferPointer { Self.runs(in: $0, segments: &segments, into: &lineRuns) }
            for run in lineRuns where run.pairs >= Self.partPairs { found.append((true, blockRow, run)) }
        }
        // Columns: along y, one through the middle of each block column — read row by row (the picture's memory
        // order), each column's samples to its own stretch of `current`.
        let perColumn = (height + step - 1) / step, base = current.count
        current.append(contentsOf: repeatElement(0, count: perColumn * columns))
        current.withUnsafeMutableBufferPointer { out in
            var y = 0, j = 0
            while y < height {
                let row = (plane.baseAddress + y * plane.bytesPerRow).assumingMemoryBound(to: Sample.self)
                for blockColumn in 0..<columns {
                    out[base + blockColumn * perColumn + j] = linear[Int(row[min(width - 1, blockColumn * blockSize + blockSize / 2)]) & mask]
                }
                y += step
                j += 1
            }
        }
        for blockColumn in 0..<columns {
            current.withUnsafeBufferPointer { samples in
                let stretch = UnsafeBufferPointer(rebasing: samples[(base + blockColumn * perColumn)..<(base + (blockColumn + 1) * perColumn)])
                Self.runs(in: stretch, segments: &segments, into: &lineRuns)
            }
            for run in lineRuns where run.pairs >= Self.partPairs { found.append((false, blockColumn, run)) }
        }
        // Stripes continue from line to line: a run counts when the neighbouring line (the block row above or below,
        // the block column left or right) carries the same light and dark over its stretch — shifted by up to half a
        // pair (slanted, curved or checkered stripes) — correlating at `likeness` or more. Random texture makes
        // short regular runs by chance, but not the same ones line after line.
        let perRow = (width + step - 1) / step
        for (alongRows, index, run) in found {
            let (lines, length, start) = alongRows ? (rows, perRow, 0) : (columns, perColumn, base)
            let period = Float(run.end - run.start + 1) / Float(run.pairs)
            let neighbours = [index - 1, index + 1].filter { $0 >= 0 && $0 < lines }
            let alike = current.withUnsafeBufferPointer { samples in
                neighbours.contains { other in
                    Self.correlation(
                        samples, start + index * length, start + other * length, from: run.start, through: run.end, length: length,
                        maxShift: Int(period / 2)) >= Self.likeness
                }
            }
            guard alike else { continue }
            periods.append(period)
            (light, dark, counted) = (light + run.light, dark + run.dark, counted + 1)
            let blocks = alongRows ? columns : rows
            let (first, last) = (run.start * step / blockSize, min(blocks - 1, run.end * step / blockSize))
            for k in first...last {
                if alongRows { rowPeriod[index * columns + k] = period } else { columnPeriod[k * columns + index] = period }
            }
            if run.pairs >= Self.minimumPairs { longRuns.append((alongRows, index, first, last, run.pairs)) }
        }
        // A block is part of a pattern when the run crossing it and a run on a neighbouring line have about the same
        // period.
        func agrees(_ a: Float, _ b: Float) -> Bool { b > 0 && abs(a - b) <= Self.coherence * a }
        for r in 0..<rows {
            for c in 0..<columns {
                let i = r * columns + c
                let along = rowPeriod[i], across = columnPeriod[i]
                rowCrossed[i] = along > 0 && ((r > 0 && agrees(along, rowPeriod[i - columns])) || (r + 1 < rows && agrees(along, rowPeriod[i + columns])))
                columnCrossed[i] = across > 0 && ((c > 0 && agrees(across, columnPeriod[i - 1])) || (c + 1 < columns && agrees(across, columnPeriod[i + 1])))
                self.mask[i] = rowCrossed[i] || columnCrossed[i] ? 1 : 0
            }
        }
        // The pattern's pairs: the longest run lying mostly on coherent blocks.
        var pairs = 0
        for run in longRuns where run.pairs > pairs {
            var coherent = 0
            for k in run.first...run.last where run.alongRows ? rowCrossed[run.line * columns + k] : columnCrossed[k * columns + run.line] { coherent += 1 }
            if coherent * 2 >= run.last - run.first + 1 { pairs = run.pairs }
        }
        defer {
            swap(&previous, &current)
            previousSeen = counted > 0
        }
        guard counted > 0, pairs >= Self.minimumPairs else { return nil }
        let coverage = self.mask.withUnsafeBufferPointer { area.coverage(of: $0, value: 1) }
        // Change since the previous look, over the samples under the pattern (a still pattern: nothing changes).
        var change = 0.0
        if previousSeen, previous.count == current.count {
            var sum: Float = 0, samples = 0
            for r in 0..<rows {
                for i in 0..<perRow where self.mask[r * columns + min(columns - 1, i * step / blockSize)] != 0 {
                    sum += abs(current[r * perRow + i] - previous[r * perRow + i])
                    samples += 1
                }
            }
            let base = rows * perRow
            for c in 0..<columns {
                for j in 0..<perColumn where self.mask[min(rows - 1, j * step / blockSize) * columns + c] != 0 {
                    sum += abs(current[base + c * perColumn + j] - previous[base + c * perColumn + j])
                    samples += 1
                }
            }
            let contrast = max(0.01, (light - dark) / counted)
            if samples > 0 { change = Double(sum / Float(samples) / contrast) }
        }
        return Sighting(
            pairs: pairs, frameArea: coverage.frame, fieldArea: coverage.field,
            kind: kind(), change: change)
    }

    /// Stripes crossed one way only (along rows, or along columns) are straight stripes. Crossed both ways over
    /// most of the pattern with one period everywhere, a checkerboard; else — crossed one way here and the other way
    /// there, or with periods that change — curves, rings or rays (their direction turns across the picture).
    private func kind() -> PatternKind {
        var inPattern = 0, alongRows = 0, alongColumns = 0, bothWays = 0
        for i in mask.indices where mask[i] != 0 {
            inPattern += 1
            if rowCrossed[i] { alongRows += 1 }
            if columnCrossed[i] { alongColumns += 1 }
            if rowCrossed[i] && columnCrossed[i] { bothWays += 1 }
        }
        let share = { (count: Int) in Double(count) / Double(max(1, inPattern)) }
        if share(alongRows) < 0.15 || share(alongColumns) < 0.15 { return .stripes }
        guard share(bothWays) >= 0.6, !periods.isEmpty else { return .curved }
        let mean = periods.reduce(0, +) / Float(periods.count)
        let spread = (periods.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Float(periods.count)).squareRoot()
        return spread <= 0.15 * mean ? .checkerboard : .curved
    }

    /// One run of regular stripes along a line: first and last sample, light–dark pairs, mean light and dark levels.
    struct Run {
        var start: Int
        var end: Int
        var pairs: Int
        var light: Float
        var dark: Float
    }

    /// The best Pearson correlation between samples `from…through` of the line at `a` and of the line at `b`
    /// shifted by up to `maxShift` samples either way (each line `length` samples long).
    static func correlation(
        _ samples: UnsafeBufferPointer<Float>, _ a: Int, _ b: Int, from: Int, through: Int, length: Int, maxShift: Int
    ) -> Float {
        var best: Float = -1
        for shift in -maxShift...maxShift {
            let lo = max(from, -shift), hi = min(through, length - 1 - shift)
            guard hi - lo >= 7 else { continue }
            var sx: Float = 0, sy: Float = 0, sxx: Float = 0, syy: Float = 0, sxy: Float = 0
            for i in lo...hi {
                let x = samples[a + i], y = samples[b + i + shift]
                sx += x
                sy += y
                sxx += x * x
                syy += y * y
                sxy += x * y
            }
            let n = Float(hi - lo + 1)
            let covariance = sxy - sx * sy / n, varianceX = sxx - sx * sx / n, varianceY = syy - sy * sy / n
            guard varianceX > 1e-6, varianceY > 1e-6 else { continue }
            best = max(best, covariance / (varianceX * varianceY).squareRoot())
        }
        return best
    }

    /// A light or dark stretch of a line: its first and last sample and its extreme level.
    struct Segment {
        var light: Bool
        var start: Int
        var last: Int
        var level: Float
    }

    /// The runs of regular stripes along `line` (relative luminance samples), into `runs`; `segments` is scratch.
    static func runs(in line: UnsafeBufferPointer<Float>, segments: inout [Segment], into runs: inout [Run]) {
        runs.removeAll(keepingCapacity: true)
        segments.removeAll(keepingCapacity: true)
        let count = line.count
        guard count >= 8 else { return }
        // The Schmitt trigger's centre: the mean of the 32 samples around (a running sum).
        let half = 16
        var sum: Float = 0
        for i in 0..<min(count, half) { sum += line[i] }
        var lo = 0, hi = min(count, half)
        var state = 0
        for i in 0..<count {
            if hi < count, hi < i + half {
                sum += line[hi]
                hi += 1
            }
            if i - half > lo {
                sum -= line[lo]
                lo += 1
            }
            let centre = sum / Float(hi - lo)
            let band = max(0.02, 0.2 * centre)
            let value = line[i]
            if value >= centre + band {
                if state == 1 {
                    segments[segments.count - 1].last = i
                    segments[segments.count - 1].level = max(segments[segments.count - 1].level, value)
                } else {
                    state = 1
                    segments.append(Segment(light: true, start: i, last: i, level: value))
                }
            } else if value <= centre - band {
                if state == -1 {
                    segments[segments.count - 1].last = i
                    segments[segments.count - 1].level = min(segments[segments.count - 1].level, value)
                } else {
                    state = -1
                    segments.append(Segment(light: false, start: i, last: i, level: value))
                }
            }
        }
        // Runs: consecutive light segments (with the dark after each) bright, contrasted and regularly spaced. An
        // irregular spacing ends a run, and the next starts from the light segment before it (a stripe cut short by
        // the pattern's edge spoils only its own pair).
        var current: Run?
        var previous: Run?
        var lastStart = -1, lastPeriod = 0
        var lastChange: Int?
        func close() {
            if let run = current, run.pairs >= 2 { runs.append(run) }
            current = nil
            previous = nil
            lastStart = -1
            lastPeriod = 0
            lastChange = nil
        }
        for (index, segment) in segments.enumerated() where segment.light {
            let hasDark = index + 1 < segments.count
            let darkLevel = hasDark ? segments[index + 1].level : (index > 0 ? segments[index - 1].level : 1)
            let end = hasDark ? segments[index + 1].last : segment.last
            guard segment.level >= lightLevel, darkLevel <= segment.level * darkRatio else {
                close()
                continue
            }
            let pair = Run(start: segment.start, end: end, pairs: 1, light: segment.level, dark: darkLevel)
            if lastStart >= 0 {
                let period = segment.start - lastStart
                if period < shortestPeriod {
                    close()
                    current = pair
                    previous = pair
                    lastStart = segment.start
                    continue
                }
                var regular = true
                if lastPeriod > 0 {
                    // Close to the last pair, and changing smoothly (a chirp is regular, a random texture is not).
                    let change = period - lastPeriod
                    if abs(Float(change)) > regularity * Float(lastPeriod) {
                        regular = false
                    } else if let lastChange, abs(Float(change - lastChange)) > max(2, smoothness * Float(lastPeriod)) {
                        regular = false
                    } else {
                        lastChange = change
                    }
                }
                if !regular {
                    let restart = previous
                    close()
                    current = restart
                    lastStart = restart?.start ?? -1
                }
                lastPeriod = lastStart >= 0 ? segment.start - lastStart : 0
            }
            if var run = current {
                run.end = end
                run.pairs += 1
                run.light += segment.level
                run.dark += darkLevel
                current = run
            } else {
                current = pair
            }
            previous = pair
            lastStart = segment.start
        }
        close()
        for i in runs.indices {
            runs[i].light /= Float(runs[i].pairs)
            runs[i].dark /= Float(runs[i].pairs)
        }
    }
}

/// The shape of a regular pattern.
public enum PatternKind: String, Sendable {
    /// Straight stripes, one way.
    case stripes
    /// Light and dark squares: stripes both ways over the same area.
    case checkerboard
    /// Stripes whose direction turns: rings, spirals, rays, curves.
    case curved
}

/// Follows sightings over time: a pattern seen for at least `minimumSeconds` over enough area is an incident.
struct PatternWatch {
    let minimumSeconds: Double
    let qualifies: (_ frameArea: Double, _ fieldArea: Double) -> Bool
    /// Changes of at least this (relative to the pattern's contrast) make a pattern moving rather than still.
    static let changing = 0.05
    private var open: FlashIncident?
    private var incidents: [FlashIncident] = []

    init(minimumSeconds: Double = 0.5, qualifies: @escaping (Double, Double) -> Bool) {
        self.minimumSeconds = minimumSeconds
        self.qualifies = qualifies
    }

    /// One look at `time`, standing for `span` seconds (until the next look).
    mutating func add(time: Double, sighting: Sighting?, span: Double) {
        guard let sighting, qualifies(sighting.frameArea, sighting.fieldArea) else {
            close()
            return
        }
        let details = PatternDetails(pairs: sighting.pairs, kind: sighting.kind, changing: sighting.change >= Self.changing)
        if var incident = open {
            incident.end = time + span
            incident.peakFrameArea = max(incident.peakFrameArea, sighting.frameArea)
            incident.peakFieldArea = max(incident.peakFieldArea, sighting.fieldArea)
            if var known = incident.pattern {
                known.pairs = max(known.pairs, details.pairs)
                known.changing = known.changing || details.changing
                if known.kind != details.kind, details.kind == .curved { known.kind = .curved }
                incident.pattern = known
            }
            open = incident
        } else {
            open = FlashIncident(
                kind: .pattern, start: time, end: time + span, peakFlashesPerSecond: 0,
                peakFrameArea: sighting.frameArea, peakFieldArea: sighting.fieldArea, transitions: 0, pattern: details)
        }
    }

    typealias Sighting = PatternDetector.Sighting

    private mutating func close() {
        if let incident = open, incident.end - incident.start >= minimumSeconds - 1e-6 { incidents.append(incident) }
        open = nil
    }

    mutating func finish() -> [FlashIncident] {
        close()
        return incidents
    }
}
