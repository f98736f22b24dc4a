#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The per-picture half of the flash analysis: a frame's blocks measured (relative luminance; red for the red rule;
/// the blocks whose fine pattern reversed since the picture before) and, once in each tenth of a second, a look for
/// regular patterns. It keeps of one picture for the next only its samples and the pattern detector's previous look,
/// so several measurers can work on segments of a video at once, each on a thread of its own, while one
/// `FlashAnalyzer` follows the measurements in order (the measurer of the segment before measures the first picture
/// after its end for what it alone can see there: see `FlashAnalyzer.replaceReversals` and `replaceLook`).
public final class FlashFrameMeasurer {
    public let configuration: FlashConfiguration
    private var measurer: BlockMeasurer?
    private var area: AreaMeter?
    private var patterns: PatternDetector?
    private var lastTime: Double?

    public init(configuration: FlashConfiguration) {
        self.configuration = configuration
    }

    /// Measures a picture, and looks for patterns in it when it is the first this measurer sees or the first of a
    /// new tenth of a second (see `FlashAnalyzer.looksForPatterns`).
    public func measure(_ frame: FlashFrame) -> FlashMeasurement {
        let measurer = prepare(for: frame)
        let hasChroma = frame.cb != nil && frame.cr != nil
        let detectsRed = configuration.detectsRed && hasChroma
        measurer.measure(frame, withChroma: hasChroma)
        var luminance = measurer.luminance
        var red: [Float] = [], saturated: [Bool] = []
        if hasChroma {
            if detectsRed {
                red = [Float](repeating: 0, count: luminance.count)
                saturated = [Bool](repeating: false, count: luminance.count)
            }
            applyColor(measurer, red: detectsRed, blockLuminance: &luminance, redValues: &red, redSaturated: &saturated)
        }
        return FlashMeasurement(
            time: frame.time, grid: measurer.grid, luminance: luminance, red: red, redSaturated: saturated, reversals: measurer.reversals,
            look: lookIfDue(frame))
    }

    /// Only the pattern look, made when `frame` is due one: for the frames just past a segment's end, whose first
    /// look carries this measurer's previous look across the join (see `FlashAnalyzer.replaceLook`).
    public func lookIfDue(_ frame: FlashFrame) -> PatternLook? {
        defer { lastTime = frame.time }
        guard configuration.detectsPatterns, FlashAnalyzer.looksForPatterns(at: frame.time, after: lastTime) else { return nil }
        _ = prepare(for: frame)
        guard var area, let patterns else { return nil }
        let sighting = patterns.look(at: frame.luma, area: &area)
        self.area = area
        return PatternLook(time: frame.time, sighting: sighting)
    }

    /// (Re)builds the per-size state when the picture size or format changes.
    private func prepare(for frame: FlashFrame) -> BlockMeasurer {
        if let measurer, measurer.matches(frame) { return measurer }
        let measurer = BlockMeasurer(
            width: frame.luma.width, height: frame.luma.height, color: frame.color,
            blockSize: configuration.blockSize(width: frame.luma.width),
            sampling: configuration.sampling(width: frame.luma.width, height: frame.luma.height),
            reversalRule: ReversalRule(change: Float(configuration.luminanceChange), darkerStateBelow: configuration.darkerStateLimit.map(Float.init)))
        self.measurer = measurer
        area = AreaMeter(grid: measurer.grid)
        patterns = PatternDetector(grid: measurer)
        return measurer
    }

    /// Colour per block, from its mean Y′, Cb and Cr through the stream's own matrix:
    /// - relative luminance: luma alone underrates saturated colours (pure red has Y′ 0.21 but relative
    ///   luminance 0.21 only in linear light, 0.04 through the curve), so each block's per-pixel luma measure is
    ///   corrected by the difference between its colour's luminance and its mean luma's;
    /// - for the red rule: (R−G−B)·320 in linear light (negatives as 0), and whether it is saturated red.
    /// HDR colours go through their transfer (HLG with its display's system gamma, driven by the scene luminance)
    /// relative to 203 cd/m² white; wide-gamut (BT.2020) colours are taken to BT.709 primaries for the red rule.
    private func applyColor(
        _ measurer: BlockMeasurer, red: Bool, blockLuminance: inout [Float], redValues: inout [Float], redSaturated: inout [Bool]
    ) {
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
                                    // `values` and `saturated` start at 0 and false (and are empty when red is not measured).
                                    for i in 0..<luma.count {
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

/// One picture as the flash analysis needs it: its blocks' measures, without the picture.
public struct FlashMeasurement: Sendable {
    /// Presentation time in seconds.
    public var time: Double
    /// The blocks measured.
    let grid: BlockGrid
    /// Per block: relative luminance (0–1), corrected for colour.
    let luminance: [Float]
    /// Per block, for the red rule: (R−G−B)·320 in linear light, and whether it is saturated red (empty when red is
    /// not measured).
    let red: [Float]
    let redSaturated: [Bool]
    /// The blocks whose fine pattern reversed since the picture before (nil: this measurer saw no picture before).
    public internal(set) var reversals: BlockReversals?
    /// The pattern look made on this picture (nil: none).
    public let look: PatternLook?
}

/// What one look for regular patterns found, and when.
public struct PatternLook: Sendable {
    public let time: Double
    let sighting: PatternDetector.Sighting?

    /// The same look at another time (the picture's time put on a presentation's timeline).
    public func at(_ time: Double) -> PatternLook { PatternLook(time: time, sighting: sighting) }
}
