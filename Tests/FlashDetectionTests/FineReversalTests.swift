import TestSupport
import Testing

@testable import FlashDetection

/// Patterns finer than the analysis grid reversing their contrast: every stripe or square flashes, though the mean of
/// each block stays the same. They must fail (or pass under the area limit) exactly as the same pattern with cells
/// larger than a block — at every resolution, whatever the cell size.
@Suite struct FineReversalTests {
    enum Kind: String, CaseIterable { case stripes, checkerboard }

    static let light = 235, dark = 16, grey = 128

    /// A grey picture with a centred rectangle over `share` of it (its sides in the picture's proportions) holding
    /// `kind` of `cell`-px cells, in `phase` 0 or 1. Rows are built once and copied: a 4K picture in a few milliseconds.
    static func picture(width: Int, height: Int, kind: Kind, cell: Int, share: Double, phase: Int) -> SyntheticPicture {
        let scale = share.squareRoot()
        let (w, h) = (Int((Double(width) * scale).rounded()), Int((Double(height) * scale).rounded()))
        let (x0, y0) = ((width - w) / 2, (height - h) / 2)
        var luma = [UInt8](repeating: UInt8(grey), count: width * height)
        func row(_ parity: Int) -> [UInt8] {
            (0..<w).map { x in (x / cell + parity) % 2 == 0 ? UInt8(light) : UInt8(dark) }
        }
        let rows = [row(phase), row(1 - phase)]
        luma.withUnsafeMutableBufferPointer { plane in
            for y in y0..<(y0 + h) {
                let source = kind == .stripes ? rows[0] : rows[((y - y0) / cell) % 2]
                source.withUnsafeBufferPointer { plane.baseAddress!.advanced(by: y * width + x0).update(from: $0.baseAddress!, count: w) }
            }
        }
        return SyntheticPicture(width: width, height: height, luma: luma)
    }

    /// The verdict of a pattern in `pictures` (phase 0, phase 1) reversing `rate` times a second as flashes (2 × rate
    /// reversals) for two seconds at 30 fps, under `wcag` and under `bt1702` (its pattern rule aside: the flash rule
    /// is what is compared). The measurer runs for real; as a picture's measure depends only on it and the picture
    /// before, the pictures are measured once in each order and the measures replayed on the timeline.
    static func reports(_ pictures: [SyntheticPicture], rates: [Int]) -> [String: FlashReport] {
        let width = pictures[0].width, height = pictures[0].height
        let color = PictureColor(kr: 0.2126, kb: 0.0722, fullRange: false, bitDepth: 8)
        let measurer = FlashFrameMeasurer(configuration: .profile("wcag")!)
        // A, A, B, B, A: the first picture, then each picture after each.
        let measured = [0, 0, 1, 1, 0].enumerated().map { n, phase in
            pictures[phase].withFrame(time: Double(n), color: color) { measurer.measure($0) }
        }
        #expect(measured[0].reversals == nil && measured[1].reversals?.isEmpty == true, "\(width)×\(height)")
        func measure(after previous: Int?, _ phase: Int) -> FlashMeasurement {
            guard let previous else { return measured[0] }
            return measured[[[1, 2], [4, 3]][previous][phase]]
        }
        var reports: [String: FlashReport] = [:]
        for rate in rates {
            for profile in ["wcag", "bt1702"] {
                var configuration = FlashConfiguration.profile(profile)!
                configuration.detectsPatterns = false
                let analyzer = FlashAnalyzer(configuration: configuration)
                let phase = { (n: Int) in n * 2 * rate / 30 % 2 }
                for n in 0..<60 {
                    var measurement = measure(after: n == 0 ? nil : phase(n - 1), phase(n))
                    measurement.time = Double(n) / 30
                    analyzer.add(measurement)
                }
                reports["\(profile) \(rate)/s"] = analyzer.finish()
            }
        }
        _ = (width, height)
        return reports
    }

    static let resolutions = [(320, 180), (640, 360), (1280, 720), (1920, 1080), (3840, 2160)]

    /// 3 flashes a second pass everywhere (WCAG fails more than three); 4 and 5 fail wherever the pattern covers a
    /// quarter of the area basis: a 10° field (every share here holds one whole) or, under BT.1702, the screen.
    @Test(arguments: resolutions)
    func fineCellsFailAsCoarseCellsDo(width: Int, height: Int) {
        let blockSize = FlashConfiguration.profile("wcag")!.blockSize(width: width)
        let rates = [3, 4, 5]
        for share in [0.2, 0.4, 0.6] {
            for kind in Kind.allCases {
                let coarse = Self.reports(
                    (0..<2).map { Self.picture(width: width, height: height, kind: kind, cell: blockSize * 3, share: share, phase: $0) }, rates: rates)
                for (name, report) in coarse {
                    let fails = !name.hasPrefix("wcag 3") && !name.hasPrefix("bt1702 3") && (name.hasPrefix("wcag") || share > 0.25)
                    #expect(report.fails == fails, "coarse \(kind) \(share) \(width)×\(height) \(name)")
                }
                for cell in [2, 3, 4, 8, 16, 32] where cell < blockSize * 2 {
                    let fine = Self.reports(
                        (0..<2).map { Self.picture(width: width, height: height, kind: kind, cell: cell, share: share, phase: $0) }, rates: rates)
                    for (name, report) in fine {
                        let reference = coarse[name]!
                        let what = "\(cell)-px \(kind) over \(Int(share * 100))% of \(width)×\(height), \(name)"
                        #expect(report.fails == reference.fails, "\(what): fails \(report.fails)")
                        #expect(report.incidents.map(\.kind) == reference.incidents.map(\.kind), "\(what)")
                        for (a, b) in zip(report.incidents, reference.incidents) {
                            #expect(abs(a.start - b.start) < 1.0 / 30 + 1e-6 && abs(a.end - b.end) < 1.0 / 30 + 1e-6, "\(what): \(a) vs \(b)")
                        }
                        #expect(report.maxFlashesPerSecond == reference.maxFlashesPerSecond, "\(what)")
                    }
                }
            }
        }
    }

    /// What is not a reversal stays out: fine stripes drifting a pixel a frame (a moving pattern: `pattern.regular`'s
    /// business, not a flash), a random texture of 3-px light and dark cells panning at several speeds, and heavy
    /// grain — in each, samples change both ways in every block, but not against the picture before. The verdict and
    /// the rate are the block means' own (those pans of full-contrast noise fail by the block means alone, as the
    /// static of an untuned television would).
    @Test func movementAndGrainAreNotReversals() {
        let (width, height) = (1280, 720)
        var generator = SeededRandom(seed: 37)
        // A texture of 3-px cells of random light and dark, wider than the picture by the whole pan.
        let textureWidth = width + 13 * 60
        let (light, dark) = (UInt8(Self.light), UInt8(Self.dark))
        let cellsPerRow = textureWidth / 3 + 1
        var cells: [UInt8] = []
        for _ in 0..<(cellsPerRow * (height / 3 + 1)) { cells.append(generator.next() % 2 == 0 ? light : dark) }
        var texture = [UInt8](repeating: 0, count: textureWidth * height)
        for y in 0..<height {
            for x in 0..<textureWidth { texture[y * textureWidth + x] = cells[(y / 3) * cellsPerRow + x / 3] }
        }
        func panning(_ speed: Int) -> SyntheticVideo {
            SyntheticVideo(width: width, height: height, frames: 60) { n in
                var luma = [UInt8](repeating: 0, count: width * height)
                luma.withUnsafeMutableBufferPointer { picture in
                    texture.withUnsafeBufferPointer { texture in
                        for y in 0..<height {
                            picture.baseAddress!.advanced(by: y * width).update(
                                from: texture.baseAddress!.advanced(by: y * textureWidth + n * speed), count: width)
                        }
                    }
                }
                return SyntheticPicture(width: width, height: height, luma: luma)
            }
        }
        let drifting = SyntheticVideo(width: width, height: height, frames: 60) { n in
            let row: [UInt8] = (0..<width).map { x in (x + n) / 4 % 2 == 0 ? light : dark }
            return SyntheticPicture(width: width, height: height, luma: Array(repeating: row, count: height).flatMap { $0 })
        }
        let grainy = (0..<5).map { _ in
            SyntheticPicture(width: width, height: height, luma: (0..<(width * height)).map { _ in UInt8(Self.grey - 24 + Int(generator.next() % 49)) })
        }
        let grain = SyntheticVideo(width: width, height: height, frames: 60) { grainy[$0 % 5] }
        for (name, video) in [("drifting stripes", drifting), ("pan 2 px", panning(2)), ("pan 5 px", panning(5)), ("pan 13 px", panning(13)), ("grain", grain)]
        {
            for profile in ["wcag", "bt1702"] {
                var configuration = FlashConfiguration.profile(profile)!
                configuration.detectsPatterns = false
                let measurer = FlashFrameMeasurer(configuration: configuration)
                let (analyzer, blockMeansOnly) = (FlashAnalyzer(configuration: configuration), FlashAnalyzer(configuration: configuration))
                for n in 0..<video.frames {
                    var measured = video.picture(n).withFrame(time: Double(n) / 30, color: video.color) { measurer.measure($0) }
                    analyzer.add(measured)
                    measured.reversals = nil
                    blockMeansOnly.add(measured)
                }
                let (report, reference) = (analyzer.finish(), blockMeansOnly.finish())
                #expect(report.fails == reference.fails && report.maxFlashesPerSecond == reference.maxFlashesPerSecond, "\(name), \(profile)")
                // At most a sliver more area than the block means see (the pans of noise fail by them alone, as static does).
                for (a, b) in zip(report.incidents, reference.incidents) { #expect(a.peakFrameArea - b.peakFrameArea < 0.02, "\(name), \(profile)") }
                if name == "drifting stripes" || name == "grain" { #expect(!report.fails && report.maxFlashesPerSecond == 0, "\(name), \(profile)") }
            }
        }
    }

    /// Blocks that are not a power of two, a sampling step that does not divide them and a picture that ends inside a
    /// block (the layout of the samples read is what the reversals are found in): 4-px stripes over 60% of 500×282 in
    /// 12-px blocks read every third pixel of every third row fail at 5 flashes a second under both profiles, as 36-px
    /// stripes do; and 3 flashes a second pass.
    @Test func oddGrids() {
        for cell in [4, 36] {
            let pictures = (0..<2).map { Self.picture(width: 500, height: 282, kind: .stripes, cell: cell, share: 0.6, phase: $0) }
            for (rate, fails) in [(3, false), (5, true)] {
                let video = SyntheticVideo(width: 500, height: 282, frames: 60) { pictures[$0 * 2 * rate / 30 % 2] }
                for profile in ["wcag", "bt1702"] {
                    let report = video.analyse(profile: profile) {
                        $0.blockSize = 12
                        $0.samplingStep = 3
                        $0.detectsPatterns = false
                    }
                    #expect(report.fails == fails && report.maxFlashesPerSecond == Double(rate), "\(cell)-px stripes, \(rate)/s, \(profile)")
                }
            }
        }
    }
}
