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
    private var measurer: BlockMeasurer?
    private var area: AreaMeter?
    private var luminanceTracker: TransitionTracker?
    private var redTracker: TransitionTracker?
    private var transitions: [Int8] = []
    private var redTransitions: [Int8] = []
    /// Relative luminance per block: the luma-based measure, corrected for colour (see `applyColor`).
    private var blockLuminance: [Float] = []
    private var redValues: [Float] = []
    private var redSaturated: [Bool] = []
    private var general: TransitionCounter
    private var red: TransitionCounter
    private var extended: ExtendedRiskWatch
    private var patterns: PatternDetector?
    private var patternWatch: PatternWatch
    private var lastPatternLook = -Double.infinity
    private var frames = 0
    private var firstTime: Double?
    private var lastTime: Double = 0
    /// Frame intervals (the first few thousand: enough for the frame rate, and memory stays flat).
    private var intervals: [Double] = []

    public init(configuration: FlashConfiguration) {
        self.configuration = configuration
        general = TransitionCounter(kind: .general, failing: configuration.failingTransitionsPerSecond)
        red = TransitionCounter(kind: .red, failing: configuration.failingTransitionsPerSecond)
        extended = ExtendedRiskWatch(failing: configuration.failingTransitionsPerSecond)
        let (fraction, basis) = (configuration.areaFraction, configuration.areaBasis)
        patternWatch = PatternWatch { frame, field in (basis == .frame ? frame : field) > fraction }
    }

    /// Patterns are looked for every tenth of a second (each look stands for the tenth of a second it starts).
    static let patternLookInterval = 0.1

    /// Whether every frame's worst-field coverage is measured exactly (for per-frame output); otherwise the
    /// field is only searched when enough blocks transition to reach the area threshold.
    public var measuresEveryFrame = false

    /// Analyses the next frame (frames must come in presentation order).
    @discardableResult
    public func add(_ frame: FlashFrame) -> FrameMeasurement {
        prepare(for: frame)
        guard let measurer, var area else { preconditionFailure("prepared above") }
        let hasChroma = frame.cb != nil && frame.cr != nil
        let detectsRed = configuration.detectsRed && hasChroma
        measurer.measure(frame, withChroma: hasChroma)
        if hasChroma {
            applyColor(measurer, red: detectsRed)
        } else {
            blockLuminance = measurer.luminance
        }

        // Transitions per block, then whether enough area transitions one way: general, then red.
        let fieldAtLeast = measuresEveryFrame || configuration.areaBasis == .frame ? nil : Optional(configuration.areaFraction)
        let darker = configuration.darkerStateLimit.map(Float.init)
        let areas = frameTransitions(
            values: blockLuminance, flags: nil, threshold: Float(configuration.luminanceChange),
            tracker: &luminanceTracker, mask: &transitions, area: &area, fieldAtLeast: fieldAtLeast
        ) { from, to, _, _ in
            guard let darker else { return true }
            return min(from, to) < darker
        }
        general.add(time: frame.time, areas, qualifies: qualifies)
        if detectsRed {
            let redAreas = frameTransitions(
                values: redValues, flags: redSaturated, threshold: Float(configuration.redChange),
                tracker: &redTracker, mask: &redTransitions, area: &area,
                fieldAtLeast: fieldAtLeast
            ) { _, _, wasRed, isRed in wasRed || isRed }
            red.add(time: frame.time, redAreas, qualifies: qualifies)
        }

        if configuration.detectsExtendedRisk { extended.add(time: frame.time, transitionsInLastSecond: general.inLastSecond) }
        if configuration.detectsPatterns, frame.time - lastPatternLook >= Self.patternLookInterval - 1e-3, let patterns {
            let sighting = patterns.look(at: frame.luma, area: &area)
            // A look stands for the frames until the next one: as long as the last interval between looks.
            let span = lastPatternLook.isFinite ? frame.time - lastPatternLook : Self.patternLookInterval
            patternWatch.add(time: frame.time, sighting: sighting, span: span)
            lastPatternLook = frame.time
        }
        self.area = area
        if frames == 0 {
            firstTime = frame.time
        } else if intervals.count < 4096 {  // enough to know the frame rate; memory stays flat
            intervals.append(frame.time - lastTime)
        }
        lastTime = frame.time
        frames += 1

        let meanLuminance = blockLuminance.withUnsafeBufferPointer { lum -> Double in
            var sum = 0.0
            for i in 0..<lum.count { sum += Double(lum[i]) * Double(measurer.blockArea[i]) }
            return sum / Double(measurer.width * measurer.height)
        }
        return FrameMeasurement(
            time: frame.time, meanLuminance: meanLuminance, flashingFrameArea: max(areas.up.frame, areas.down.frame, areas.both.frame),
            flashingFieldArea: max(areas.up.field, areas.down.field, areas.both.field), transitionsInLastSecond: general.inLastSecond,
            redTransitionsInLastSecond: red.inLastSecond)
    }

    /// Follows each block's `values` and returns the area (of the frame, and of the worst 10° field)
    /// completing a rising and a falling transition in this frame, and — when both happen — the area of the two
    /// together: "the combined area of flashes occurring concurrently" (a pattern reversing its contrast goes light
    /// in one half while it goes dark in the other).
    private func frameTransitions(
        values: [Float], flags: [Bool]?, threshold: Float, tracker: inout TransitionTracker?,
        mask: inout [Int8], area: inout AreaMeter, fieldAtLeast: Double?,
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
        guard completed > 0 else { return FrameAreas() }
        return mask.withUnsafeBufferPointer { mask in
            var areas = FrameAreas(
                up: area.coverage(of: mask, value: 1, fieldAtLeast: fieldAtLeast),
                down: area.coverage(of: mask, value: -1, fieldAtLeast: fieldAtLeast))
            if areas.up.frame > 0, areas.down.frame > 0 { areas.both = area.coverage(of: mask, value: nil, fieldAtLeast: fieldAtLeast) }
            return areas
        }
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

    /// (Re)builds the per-size state when the picture size or format changes.
    private func prepare(for frame: FlashFrame) {
        if let measurer, measurer.matches(frame) { return }
        let measurer = BlockMeasurer(
            width: frame.luma.width, height: frame.luma.height, color: frame.color,
            blockSize: configuration.blockSize(width: frame.luma.width),
            sampling: configuration.sampling(width: frame.luma.width, height: frame.luma.height))
        self.measurer = measurer
        let blocks = measurer.columns * measurer.rows
        area = AreaMeter(
            columns: measurer.columns, rows: measurer.rows, blockArea: measurer.blockArea,
            width: measurer.width, height: measurer.height, blockSize: measurer.blockSize)
        patterns = PatternDetector(grid: measurer)
        luminanceTracker = TransitionTracker(blocks: blocks, noise: 0.002)
        redTracker = TransitionTracker(blocks: blocks, noise: 0.5)
        transitions = [Int8](repeating: 0, count: blocks)
        redTransitions = transitions
        redValues = [Float](repeating: 0, count: blocks)
        blockLuminance = redValues
        redSaturated = [Bool](repeating: false, count: blocks)
    }

    /// Colour per block, from its mean Y′, Cb and Cr through the stream's own matrix:
    /// - relative luminance: luma alone underrates saturated colours (pure red has Y′ 0.21 but relative
    ///   luminance 0.21 only in linear light, 0.04 through the curve), so each block's per-pixel luma measure is
    ///   corrected by the difference between its colour's luminance and its mean luma's;
    /// - for the red rule: (R−G−B)·320 in linear light (negatives as 0), and whether it is saturated red.
    /// HDR colours go through their transfer (HLG with its display's system gamma, driven by the scene luminance)
    /// relative to 203 cd/m² white; wide-gamut (BT.2020) colours are taken to BT.709 primaries for the red rule.
    private func applyColor(_ measurer: BlockMeasurer, red: Bool) {
        let color = measurer.color
        let kr = Float(color.kr), kb = Float(color.kb), kg = 1 - kr - kb
        let saturation = Float(configuration.redSaturation)
        let transfer = color.transfer
        let linear = measurer.channelTable
        // SDR keeps WCAG's relative luminance (BT.709 weights); HDR weighs by its own matrix (BT.2020's for BT.2100).
        let weights: (r: Float, g: Float, b: Float) = transfer == .sdr ? (0.2126, 0.7152, 0.0722) : (kr, kg, kb)
        let hlgScale = Float(TransferFunction.hlgPeak / TransferFunction.referenceWhite)
        measurer.luminance.withUnsafeBufferPointer { lumaMeasure in
            measurer.luma.withUnsafeBufferPointer { luma in
                measurer.cb.withUnsafeBufferPointer { cb in
                    measurer.cr.withUnsafeBufferPointer { cr in
                        blockLuminance.withUnsafeMutableBufferPointer { luminance in
                            redValues.withUnsafeMutableBufferPointer { values in
                                redSaturated.withUnsafeMutableBufferPointer { saturated in
                                    for i in 0..<luma.count {
                                        values[i] = 0
                                        saturated[i] = false
                                        // Grey blocks: the luma measure is right as it is.
                                        guard abs(cb[i]) > 0.01 || abs(cr[i]) > 0.01 else {
                                            luminance[i] = lumaMeasure[i]
                                            continue
                                        }
                                        let y = luma[i]
                                        let redEncoded = y + 2 * (1 - kr) * cr[i], blueEncoded = y + 2 * (1 - kb) * cb[i]
                                        let greenEncoded = (y - kr * redEncoded - kb * blueEncoded) / kg
                                        var r = linear.of(redEncoded), g = linear.of(greenEncoded), b = linear.of(blueEncoded)
                                        var grey = linear.of(y)
                                        if transfer == .hlg {
                                            // Scene light to display light: × peak · Ys^(γ−1), relative to reference white.
                                            let scene = weights.r * r + weights.g * g + weights.b * b
                                            let gain = hlgScale * Float(pow(Double(max(scene, 1e-6)), TransferFunction.hlgGamma - 1))
                                            (r, g, b) = (r * gain, g * gain, b * gain)
                                            grey = hlgScale * Float(pow(Double(grey), TransferFunction.hlgGamma))
                                        }
                                        let colorLuminance = weights.r * r + weights.g * g + weights.b * b
                                        luminance[i] = min(1, max(0, lumaMeasure[i] + colorLuminance - grey))
                                        guard red else { continue }
                                        if color.wideGamut {
                                            // BT.2020 → BT.709 primaries in linear light (BT.2087); out of gamut clamped.
                                            (r, g, b) = (
                                                max(0, 1.6605 * r - 0.5876 * g - 0.0728 * b),
                                                max(0, -0.1246 * r + 1.1329 * g - 0.0083 * b),
                                                max(0, -0.0182 * r - 0.1006 * g + 1.1187 * b)
                                            )
                                        }
                                        if transfer != .sdr { (r, g, b) = (min(1, r), min(1, g), min(1, b)) }
                                        guard r > g + b else { continue }
                                        values[i] = (r - g - b) * 320
                                        let sum = r + g + b
                                        saturated[i] = sum > 0.001 && r / sum >= saturation
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
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
