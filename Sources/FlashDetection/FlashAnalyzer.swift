#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Seizure-risk flash analysis over a stream of pictures: frames in, incidents out.
///
/// Each frame is measured per block (linear luminance, and red for the red rule); per block, transitions
/// are found by following trends; a frame transitions in a direction when the blocks transitioning that
/// way cover enough area (of any 10° field, or of the frame); transitions are counted in one-second windows
/// on the frames' own timestamps, and the spans where too many fall in a second are incidents.
public final class FlashAnalyzer {
    public let configuration: FlashConfiguration
    /// Measures the pictures given to `add(_: FlashFrame)`.
    private let measurer: FlashFrameMeasurer
    private var grid: BlockGrid?
    private var area: AreaMeter?
    private var luminanceTracker: TransitionTracker?
    private var redTracker: TransitionTracker?
    private var transitions: [Int8] = []
    /// Per block, the fractions of it that got lighter and darker in this frame's reversals (0 elsewhere: filled from a
    /// frame's reversed blocks, then cleared).
    private var reversedLighter: [Float] = []
    private var reversedDarker: [Float] = []
    private var redTransitions: [Int8] = []
    private var general: TransitionCounter
    private var red: TransitionCounter
    private var extended: ExtendedRiskWatch
    private var patternWatch: PatternWatch
    private var lastPatternLook = -Double.infinity
    /// A look made by the measurer of the segment before, for the first look of the next (see `replaceLook`).
    private var replacementLook: PatternLook?
    /// The reversals the measurer of the segment before saw at the next segment's first picture (see
    /// `replaceReversals`).
    private var replacementReversals: (time: Double, reversals: BlockReversals?)?
    private var frames = 0
    private var firstTime: Double?
    private var lastTime: Double = 0
    /// Frame intervals (the first few thousand: enough for the frame rate, and memory stays flat).
    private var intervals: [Double] = []

    public init(configuration: FlashConfiguration) {
        self.configuration = configuration
        measurer = FlashFrameMeasurer(configuration: configuration)
        general = TransitionCounter(kind: .general, failing: configuration.failingTransitionsPerSecond)
        red = TransitionCounter(kind: .red, failing: configuration.failingTransitionsPerSecond)
        extended = ExtendedRiskWatch(failing: configuration.failingTransitionsPerSecond)
        let (fraction, basis) = (configuration.areaFraction, configuration.areaBasis)
        patternWatch = PatternWatch { frame, field in (basis == .frame ? frame : field) > fraction }
    }

    /// Patterns are looked for on the first picture of every tenth of a second (each look stands for the time until
    /// the next). The rule depends on a picture's time and the one before it only, so that measurers working on
    /// segments of a video look at the same pictures as one measurer over the whole.
    static func looksForPatterns(at time: Double, after previous: Double?) -> Bool {
        guard let previous else { return true }
        return tenth(time) != tenth(previous)
    }

    private static func tenth(_ time: Double) -> Double { (time * 10 + 1e-3).rounded(.down) }

    /// Whether every frame's worst-field coverage is measured exactly (for per-frame output); otherwise the
    /// field is only searched when enough blocks transition to reach the area threshold.
    public var measuresEveryFrame = false

    /// Measures and analyses the next picture (pictures must come in presentation order).
    @discardableResult
    public func add(_ frame: FlashFrame) -> FrameMeasurement {
        add(measurer.measure(frame))
    }

    /// Uses `look` — made by the measurer of the segment before, which saw the pictures before this segment's first
    /// — for the picture at its time, in place of the look the next segment's measurer made there without them.
    public func replaceLook(with look: PatternLook) {
        replacementLook = look
    }

    /// Uses `reversals` — measured by the measurer of the segment before, against the last picture it saw — for the
    /// picture at `time`, the next segment's first, whose own measurer had no picture before it.
    public func replaceReversals(at time: Double, with reversals: BlockReversals?) {
        replacementReversals = (time, reversals)
    }

    /// Analyses the next measured picture (measurements must come in presentation order).
    @discardableResult
    public func add(_ measured: FlashMeasurement) -> FrameMeasurement {
        prepare(for: measured.grid)
        guard let grid, var area else { preconditionFailure("prepared above") }
        let time = measured.time

        // Transitions per block, then whether enough area transitions one way: general, then red.
        let fieldAtLeast = measuresEveryFrame || configuration.areaBasis == .frame ? nil : Optional(configuration.areaFraction)
        let darker = configuration.darkerStateLimit.map(Float.init)
        let reversals = replacementReversals.flatMap { $0.time == time ? $0.reversals : nil } ?? measured.reversals
        if let replacement = replacementReversals, replacement.time <= time { replacementReversals = nil }
        let areas = frameTransitions(
            values: measured.luminance, flags: nil, threshold: Float(configuration.luminanceChange),
            tracker: &luminanceTracker, mask: &transitions, area: &area, fieldAtLeast: fieldAtLeast, reversals: reversals
        ) { from, to, _, _ in
            guard let darker else { return true }
            return min(from, to) < darker
        }
        general.add(time: time, areas, qualifies: qualifies)
        if !measured.red.isEmpty {
            let redAreas = frameTransitions(
                values: measured.red, flags: measured.redSaturated, threshold: Float(configuration.redChange),
                tracker: &redTracker, mask: &redTransitions, area: &area,
                fieldAtLeast: fieldAtLeast
            ) { _, _, wasRed, isRed in wasRed || isRed }
            red.add(time: time, redAreas, qualifies: qualifies)
        }

        if configuration.detectsExtendedRisk { extended.add(time: time, transitionsInLastSecond: general.inLastSecond) }
        if configuration.detectsPatterns, Self.looksForPatterns(at: time, after: frames == 0 ? nil : lastTime) {
            let look = replacementLook?.time == time ? replacementLook : measured.look
            // A look stands for the frames until the next one: as long as the last interval between looks.
            let span = lastPatternLook.isFinite ? time - lastPatternLook : 0.1
            patternWatch.add(time: time, sighting: look?.sighting, span: span)
            lastPatternLook = time
        }
        if let replacement = replacementLook, replacement.time <= time { replacementLook = nil }
        self.area = area
        if frames == 0 {
            firstTime = time
        } else if intervals.count < 4096 {  // enough to know the frame rate; memory stays flat
            intervals.append(time - lastTime)
        }
        lastTime = time
        frames += 1

        let meanLuminance = measured.luminance.withUnsafeBufferPointer { lum -> Double in
            var sum = 0.0
            for i in 0..<lum.count { sum += Double(lum[i]) * Double(grid.blockArea[i]) }
            return sum / Double(grid.width * grid.height)
        }
        return FrameMeasurement(
            time: time, meanLuminance: meanLuminance, flashingFrameArea: max(areas.up.frame, areas.down.frame, areas.both.frame),
            flashingFieldArea: max(areas.up.field, areas.down.field, areas.both.field), transitionsInLastSecond: general.inLastSecond,
            redTransitionsInLastSecond: red.inLastSecond)
    }

    /// Follows each block's `values` and returns the area (of the frame, and of the worst 10° field)
    /// completing a rising and a falling transition in this frame, and — when both happen — the area of the two
    /// together: "the combined area of flashes occurring concurrently" (a pattern reversing its contrast goes light
    /// in one half while it goes dark in the other). A block with no transition of its own adds the parts of it that
    /// `reversals` found reversing (a pattern finer than the block: its mean stays, its stripes flash).
    private func frameTransitions(
        values: [Float], flags: [Bool]?, threshold: Float, tracker: inout TransitionTracker?,
        mask: inout [Int8], area: inout AreaMeter, fieldAtLeast: Double?, reversals: BlockReversals? = nil,
        accept: (Float, Float, Bool, Bool) -> Bool
    ) -> FrameAreas {
        let completed = values.withUnsafeBufferPointer { values in
            mask.withUnsafeMutableBufferPointer { out in
                if let flags {
                    flags.withUnsafeBufferPointer { tracker?.update(values: values, flags: $0, threshold: threshold, transitions: out, accept: accept) ?? 0 }
                } else {
                    tracker?.update(values: values, flags: nil, threshold: threshold, transitions: out, accept: accept) ?? 0
                }
            }
        }
        if let reversals, !reversals.isEmpty, let grid {
            for (k, block) in reversals.blocks.enumerated() {
                reversedLighter[Int(block)] = reversals.lighter[k]
                reversedDarker[Int(block)] = reversals.darker[k]
            }
            defer {
                for block in reversals.blocks {
                    reversedLighter[Int(block)] = 0
                    reversedDarker[Int(block)] = 0
                }
            }
            return mask.withUnsafeBufferPointer { mask in
                Self.areas(
                    mask: mask, lighter: reversedLighter, darker: reversedDarker, blockArea: grid.blockArea, area: &area, fieldAtLeast: fieldAtLeast)
            }
        }
        guard completed > 0 else { return FrameAreas() }
        return mask.withUnsafeBufferPointer { mask in
            var areas = FrameAreas(
                up: area.coverage(of: mask, value: 1, fieldAtLeast: fieldAtLeast),
                down: area.coverage(of: mask, value: -1, fieldAtLeast: fieldAtLeast))
            if areas.up.frame > 0, areas.down.frame > 0 { areas.both = area.coverage(of: mask, value: nil, fieldAtLeast: fieldAtLeast) }
            return areas
        }
    }

    /// The areas of `frameTransitions` when some blocks reversed: a block transitioning counts whole, one that did not
    /// counts the parts of it that reversed.
    private static func areas(
        mask: UnsafeBufferPointer<Int8>, lighter: [Float], darker: [Float], blockArea: [Int32], area: inout AreaMeter, fieldAtLeast: Double?
    ) -> FrameAreas {
        func part(_ fraction: Float, _ i: Int) -> Int { Int((fraction * Float(blockArea[i])).rounded()) }
        var areas = FrameAreas(
            up: area.coverage(fieldAtLeast: fieldAtLeast) { i in mask[i] == 1 ? Int(blockArea[i]) : mask[i] == 0 ? part(lighter[i], i) : 0 },
            down: area.coverage(fieldAtLeast: fieldAtLeast) { i in mask[i] == -1 ? Int(blockArea[i]) : mask[i] == 0 ? part(darker[i], i) : 0 })
        if areas.up.frame > 0, areas.down.frame > 0 {
            areas.both = area.coverage(fieldAtLeast: fieldAtLeast) { i in mask[i] != 0 ? Int(blockArea[i]) : part(lighter[i] + darker[i], i) }
        }
        return areas
    }

    /// Closes the analysis.
    public func finish() -> FlashReport {
        var incidents = general.finish() + red.finish()
        if configuration.detectsExtendedRisk { incidents += extended.finish() }
        if configuration.detectsPatterns { incidents += patternWatch.finish() }
        incidents.sort { $0.start < $1.start }
        let span = intervals.reduce(0, +)
        return FlashReport(
            configuration: configuration, framesAnalysed: frames, firstFrameTime: firstTime ?? 0,
            lastFrameTime: lastTime, measuredFPS: span > 0 ? Double(intervals.count) / span : 0, incidents: incidents,
            maxFlashesPerSecond: Double(general.maximumInOneSecond) / 2,
            maxRedFlashesPerSecond: Double(red.maximumInOneSecond) / 2)
    }

    /// Whether an area (fraction of frame, fraction of worst field) is enough to count.
    private func qualifies(_ coverage: (frame: Double, field: Double)) -> Bool {
        let covered = configuration.areaBasis == .frame ? coverage.frame : coverage.field
        return covered > 0 && covered >= configuration.areaFraction
    }

    /// (Re)builds the per-size state when the block grid changes.
    private func prepare(for grid: BlockGrid) {
        if let current = self.grid, current == grid { return }
        self.grid = grid
        let blocks = grid.columns * grid.rows
        area = AreaMeter(grid: grid)
        luminanceTracker = TransitionTracker(blocks: blocks, noise: 0.002)
        redTracker = TransitionTracker(blocks: blocks, noise: 0.5)
        transitions = [Int8](repeating: 0, count: blocks)
        redTransitions = transitions
        reversedLighter = [Float](repeating: 0, count: blocks)
        reversedDarker = reversedLighter
    }
}

/// The area (fraction of the frame, and of the worst 10° field) completing a transition in one frame: rising,
/// falling, and both together (measured only when both happen).
struct FrameAreas {
    var up: (frame: Double, field: Double) = (0, 0)
    var down: (frame: Double, field: Double) = (0, 0)
    var both: (frame: Double, field: Double) = (0, 0)
}

/// Counts frame-level transitions of one kind in one-second windows and collects the failing spans.
struct TransitionCounter {
    let kind: FlashIncident.Kind
    let failing: Int
    /// Times of counted transitions still inside the last second, oldest first.
    private var recent: [Double] = []
    private var lastDirection = 0
    private(set) var maximumInOneSecond = 0
    private(set) var inLastSecond = 0
    private var incidents: [FlashIncident] = []
    private var open: FlashIncident?

    init(kind: FlashIncident.Kind, failing: Int) {
        self.kind = kind
        self.failing = failing
    }

    /// One frame: the area rising, falling, and both together. At most one transition a frame counts. One way
    /// alone counts only when its direction differs from the last one counted (a flash is a pair of opposing
    /// changes); both ways at once — enough area each, or only together (a reversal) — count as the turn after the
    /// last, with their combined area.
    mutating func add(time: Double, _ areas: FrameAreas, qualifies: ((frame: Double, field: Double)) -> Bool) {
        let (up, down) = (areas.up, areas.down)
        // "In any one second": transitions a full second apart are not in the same second. Containers round
        // timestamps (Matroska to the millisecond), so "a full second" allows 2 ms.
        recent.removeAll { $0 <= time - 1 + 0.002 }
        let rising = qualifies(up), falling = qualifies(down)
        var counted: (frame: Double, field: Double)?
        if (rising && falling) || (!rising && !falling && qualifies(areas.both)) {
            lastDirection = lastDirection == 1 ? -1 : 1
            counted = areas.both
        } else if rising && lastDirection != 1 {
            lastDirection = 1
            counted = up
        } else if falling && lastDirection != -1 {
            lastDirection = -1
            counted = down
        }
        if let counted {
            recent.append(time)
            maximumInOneSecond = max(maximumInOneSecond, recent.count)
            if recent.count >= failing {
                let windowStart = recent[0]
                if var incident = open, windowStart <= incident.end {
                    incident.end = time
                    incident.transitions += 1
                    incident.peakFlashesPerSecond = max(incident.peakFlashesPerSecond, Double(recent.count) / 2)
                    incident.peakFrameArea = max(incident.peakFrameArea, counted.frame)
                    incident.peakFieldArea = max(incident.peakFieldArea, counted.field)
                    open = incident
                } else {
                    if let finished = open { incidents.append(finished) }
                    open = FlashIncident(
                        kind: kind, start: windowStart, end: time, peakFlashesPerSecond: Double(recent.count) / 2,
                        peakFrameArea: counted.frame, peakFieldArea: counted.field, transitions: recent.count)
                }
            }
        }
        inLastSecond = recent.count
    }

    mutating func finish() -> [FlashIncident] {
        if let finished = open { incidents.append(finished) }
        open = nil
        return incidents
    }
}

/// 4 to (failing − 1) transitions a second held for at least 4 s of any 5 s window. An incident runs from the
/// first frame in band of the window that reached 4 s to the last frame in band, and its peak is the most
/// flashes a second of every frame in band it spans — from that first frame on, not only from the one where the
/// 4 s were reached.
struct ExtendedRiskWatch {
    let failing: Int
    /// For the last five seconds, per frame after one in band: its time, the seconds in band since that frame,
    /// and that frame's transitions in the second before it.
    private var window: [(time: Double, inBand: Double, count: Int)] = []
    private var inBandTotal = 0.0
    private var lastTime: Double?
    private var lastCount = 0
    private var lastInBand = false
    /// The last frame in band: where an incident ends, though the window holds 4 s in band a while after it.
    private var lastInBandTime = 0.0
    private var incidents: [FlashIncident] = []
    private var open: FlashIncident?

    init(failing: Int) { self.failing = failing }

    mutating func add(time: Double, transitionsInLastSecond count: Int) {
        let inBand = count >= 4 && count < failing
        if let lastTime, lastInBand {
            let span = time - lastTime
            window.append((time, span, lastCount))
            inBandTotal += span
        }
        while let first = window.first, first.time <= time - 5 {
            inBandTotal -= first.inBand
            window.removeFirst()
        }
        lastTime = time
        lastCount = count
        lastInBand = inBand
        if inBand { lastInBandTime = time }
        guard inBandTotal >= 4 - 1e-9 else { return }
        // The window's peak: every frame in band it holds, and this one if it is.
        let peak = Double(max(window.map(\.count).max() ?? 0, inBand ? count : 0)) / 2
        let start = window.first.map { $0.time - $0.inBand } ?? max(0, time - 5)
        if var incident = open, start <= incident.end {
            incident.end = lastInBandTime
            incident.peakFlashesPerSecond = max(incident.peakFlashesPerSecond, peak)
            open = incident
        } else {
            if let finished = open { incidents.append(finished) }
            open = FlashIncident(
                kind: .extended, start: start, end: lastInBandTime, peakFlashesPerSecond: peak, peakFrameArea: 0, peakFieldArea: 0,
                transitions: 0)
        }
    }

    mutating func finish() -> [FlashIncident] {
        if let finished = open { incidents.append(finished) }
        open = nil
        return incidents
    }
}
