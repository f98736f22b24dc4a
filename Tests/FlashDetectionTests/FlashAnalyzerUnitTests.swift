import TestSupport
import Testing

@testable import FlashDetection

/// The analyser fed plain pictures from memory: the pieces behind the verdicts.
@Suite struct FlashAnalyzerUnitTests {
    /// Grey 8-bit pictures (no chroma), `width`×`height`, filled by `value(x, y)`.
    private func analyse(
        width: Int = 64, height: Int = 48, frames: Int, fps: Double = 30,
        configuration: FlashConfiguration = .profile("wcag")!,
        value: (Int, Int, Int) -> UInt8
    ) -> (FlashReport, [FrameMeasurement]) {
        let analyzer = FlashAnalyzer(configuration: configuration)
        var measurements: [FrameMeasurement] = []
        var pixels = [UInt8](repeating: 0, count: width * height)
        for n in 0..<frames {
            for y in 0..<height {
                for x in 0..<width { pixels[y * width + x] = value(n, x, y) }
            }
            pixels.withUnsafeBytes { bytes in
                let plane = SamplePlane(baseAddress: bytes.baseAddress!, bytesPerRow: width, width: width, height: height, bytesPerSample: 1)
                measurements.append(
                    analyzer.add(
                        FlashFrame(
                            time: Double(n) / fps, luma: plane,
                            color: PictureColor(kr: 0.299, kb: 0.114, fullRange: false, bitDepth: 8))))
            }
        }
        return (analyzer.finish(), measurements)
    }

    @Test func luminanceTableFollowsSRGB() {
        let table = BlockMeasurer.linearTable(for: PictureColor(kr: 0.2126, kb: 0.0722, fullRange: false, bitDepth: 8))
        #expect(table[16] == 0 && table[235] == 1)
        #expect(abs(Double(table[126]) - 0.2162) < 0.0005)  // code 126: Y′ 110/219 = 0.502, linear ((0.502+0.055)/1.055)^2.4
        let tenBit = BlockMeasurer.linearTable(for: PictureColor(kr: 0.2126, kb: 0.0722, fullRange: false, bitDepth: 10))
        #expect(tenBit.count == 1024 && tenBit[64] == 0 && tenBit[940] == 1)
        let full = BlockMeasurer.linearTable(for: PictureColor(kr: 0.2126, kb: 0.0722, fullRange: true, bitDepth: 8))
        #expect(full[0] == 0 && full[255] == 1)
    }

    /// BT.2100's transfers against their published points: PQ signal 0.58 is 203 cd/m² (BT.2408's reference white),
    /// 0.7518 is 1000 cd/m², 1.0 is 10,000; HLG 75% signal is 203 cd/m² on the 1000 cd/m² reference display, 100% is
    /// 1000. Relative luminance is 1.0 at 203 cd/m², brighter clipped.
    @Test func hdrTransfers() {
        #expect(abs(TransferFunction.pqLuminance(0.5807) - 203) < 0.5)
        #expect(abs(TransferFunction.pqLuminance(0.7518) - 1000) < 1)
        #expect(abs(TransferFunction.pqLuminance(1) - 10_000) < 1e-6)
        #expect(abs(TransferFunction.hlgScene(0.5) - 1.0 / 12) < 1e-12)
        #expect(abs(TransferFunction.hlgScene(1) - 1) < 1e-6)
        #expect(abs(TransferFunction.hlg.greyLuminance(0.75) - 1) < 0.005)
        #expect(abs(TransferFunction.pq.greyLuminance(0.5807) - 1) < 0.005)
        #expect(TransferFunction.pq.greyLuminance(0.9) == 1 && TransferFunction.hlg.greyLuminance(1) == 1)
        #expect(abs(TransferFunction.pq.greyLuminance(TransferFunction.sdr.greyLuminance(0)) - 0) < 1e-9)
        // 10-bit limited range: code 64 is black, 940 the top of the signal (10,000 cd/m² for PQ: white).
        let table = BlockMeasurer.linearTable(for: PictureColor(kr: 0.2627, kb: 0.0593, fullRange: false, bitDepth: 10, transfer: .pq))
        #expect(table[64] == 0 && table[940] == 1)
        #expect(abs(Double(table[573]) - TransferFunction.pq.greyLuminance(509.0 / 876)) < 1e-6)
    }

    /// A ramp from black to white over 20 frames is one transition; so is a cut.
    @Test func aSlowRampIsOneTransition() {
        let (_, measurements) = analyse(frames: 40) { n, _, _ in UInt8(16 + min(n, 20) * 219 / 20) }
        let counted = measurements.map(\.transitionsInLastSecond)
        #expect(counted.max() == 1)
        let firstCounted = counted.firstIndex(of: 1)!
        // Frame 7 is code 92 (linear 0.098), frame 8 code 103 (0.131): 0.10 is crossed on frame 8.
        #expect(firstCounted == 8)
    }

    /// Seven transitions inside one second fail; six, or seven a full second apart, do not.
    @Test func sevenTransitionsInOneSecond() {
        // A toggle every 5 frames at 30 fps: transitions 1/6 s apart, so 7 span exactly one second.
        let (exact, _) = analyse(frames: 60) { n, _, _ in n / 5 % 2 == 0 ? 235 : 16 }
        #expect(!exact.fails)
        #expect(exact.maxFlashesPerSecond == 3)
        let (faster, _) = analyse(frames: 60) { n, _, _ in n / 4 % 2 == 0 ? 235 : 16 }
        #expect(faster.fails)
        #expect(faster.incidents.map(\.kind) == [.general])
    }

    /// Compression noise does not turn a trend, and small wobbles are not transitions.
    @Test func noiseIsNotFlashing() {
        var random = SystemRandomNumberGenerator()
        let (report, _) = analyse(frames: 90) { _, _, _ in UInt8(120 + Int.random(in: -3...3, using: &random)) }
        #expect(!report.fails)
        #expect(report.maxFlashesPerSecond == 0)
    }

    /// The area meter: a block-aligned square's share of the frame and of the worst 10° field.
    @Test func areaMeter() {
        // 320×240 in 8-px blocks: 40×30 blocks; the field is 13×10 blocks.
        var meter = AreaMeter(columns: 40, rows: 30, blockArea: [Int32](repeating: 64, count: 1200), width: 320, height: 240, blockSize: 8)
        #expect(meter.fieldColumns == 13 && meter.fieldRows == 10)
        var mask = [Int8](repeating: 0, count: 1200)
        for row in 12..<18 { for column in 18..<24 { mask[row * 40 + column] = 1 } }  // 6×6 blocks
        let coverage = mask.withUnsafeBufferPointer { meter.coverage(of: $0, value: 1) }
        #expect(abs(coverage.frame - 36.0 / 1200) < 1e-9)
        #expect(abs(coverage.field - 36.0 / 130) < 1e-9)
        let skipped = mask.withUnsafeBufferPointer { meter.coverage(of: $0, value: 1, fieldAtLeast: 0.5) }
        #expect(skipped.field == 0)  // 36 blocks cannot be half of a 130-block field: not searched
    }

    @Test func profilesAndFailingCounts() {
        #expect(FlashConfiguration.profile("wcag")!.failingTransitionsPerSecond == 7)
        #expect(FlashConfiguration.profile("kwcag")!.failingTransitionsPerSecond == 6)
        #expect(FlashConfiguration.profile("bt1702")!.areaBasis == .frame)
        #expect(FlashConfiguration.profile("wcag-aaa")!.darkerStateLimit == nil)
        #expect(FlashConfiguration.profile("nope") == nil)
        let configuration = FlashConfiguration.profile("wcag")!
        #expect(configuration.blockSize(width: 320) == 8 && configuration.blockSize(width: 1280) == 16)
        #expect(configuration.blockSize(width: 1920) == 32 && configuration.blockSize(width: 3840) == 64)
        #expect(configuration.sampling(width: 320, height: 240) == (1, 1))
        #expect(configuration.sampling(width: 1920, height: 1080) == (2, 32))
    }
}

/// The extended-risk watch on its own: counts of transitions in the last second, frame by frame.
struct ExtendedRiskWatchTests {
    /// 2.5 flashes a second (5 transitions) from 0.6 s, then 2 (4 transitions) from 2.6 s to 6.6 s, at 30 fps: one
    /// incident from the first frame in band (0.6 s, not a frame later) to the last (frame 197), whose peak is the
    /// 2.5 a second it spans, though the 4 s in band are only reached at 4.6 s, where the count is 4.
    @Test func peakAndStartCoverTheWholeSpan() throws {
        var watch = ExtendedRiskWatch(failing: 6)
        for frame in 0..<240 {
            let time = Double(frame) / 30
            let count = time < 0.6 - 1e-9 ? 0 : time < 2.6 - 1e-9 ? 5 : time < 6.6 - 1e-9 ? 4 : 0
            watch.add(time: time, transitionsInLastSecond: count)
        }
        let incidents = watch.finish()
        try #require(incidents.count == 1)
        #expect(abs(incidents[0].start - 0.6) < 1e-9, "\(incidents[0].start)")
        #expect(incidents[0].peakFlashesPerSecond == 2.5)
        #expect(abs(incidents[0].end - 197.0 / 30) < 1e-9, "\(incidents[0].end)")
    }
}

/// The pattern detector's reading of one line of samples.
struct PatternRunTests {
    private func runs(_ line: [Float]) -> [PatternDetector.Run] {
        var segments: [PatternDetector.Segment] = [], runs: [PatternDetector.Run] = []
        line.withUnsafeBufferPointer { PatternDetector.runs(in: $0, segments: &segments, into: &runs) }
        return runs
    }

    /// Grey, then eight pairs of 6-sample white and black stripes, then grey: one run of eight pairs over the stripes.
    @Test func stripesMakeOneRun() throws {
        let line = [Float](repeating: 0.2, count: 40) + (0..<96).map { $0 % 12 < 6 ? 1 : 0 } + [Float](repeating: 0.2, count: 40)
        let found = runs(line)
        try #require(found.count == 1)
        #expect(found[0].pairs == 8)
        // The run starts at the first stripe; it ends a little into the grey after the last (the trigger's centre, a
        // running mean, still sits above the grey there).
        #expect(found[0].start == 40 && (135..<152).contains(found[0].end), "\(found[0].end)")
        #expect(found[0].light == 1 && found[0].dark == 0)
    }

    /// Stripes too dim (light 0.2), with too little contrast (0.6 against 0.4), or closer than 4 samples are not
    /// stripes; a chirp whose pairs lengthen smoothly (8, 9, 10 … samples) is.
    @Test func dimFineAndChirpedLines() {
        #expect(runs((0..<120).map { $0 % 12 < 6 ? 0.2 : 0 }).isEmpty)
        #expect(runs((0..<120).map { $0 % 12 < 6 ? 0.6 : 0.4 }).allSatisfy { $0.pairs < 2 })
        #expect(runs((0..<120).map { $0 % 2 == 0 ? 1 : 0 }).allSatisfy { $0.pairs < 3 })
        var chirp: [Float] = []
        for period in 8..<18 { chirp += (0..<period).map { $0 < period / 2 ? 1 : 0 } }
        #expect(runs(chirp).map(\.pairs).max() ?? 0 >= 8)
    }

    /// Random light and dark texture (one- to six-sample cells) can make a regular-looking run on one line by chance;
    /// what rules it out is the neighbouring line: two such lines do not correlate (below 0.5 at every shift up to
    /// half a pair), while a line of stripes and the same stripes shifted by 3 samples do (slanted stripes).
    @Test func neighbouringLinesDecide() {
        var generator = SeededRandom(seed: 7)
        func texture() -> [Float] {
            var line: [Float] = []
            while line.count < 960 {
                let value: Float = Bool.random(using: &generator) ? 1 : 0.05
                line += [Float](repeating: value, count: Int.random(in: 1...6, using: &generator))
            }
            return Array(line.prefix(960))
        }
        let random = texture() + texture()
        let stripes: [Float] = (0..<960).map { $0 % 12 < 6 ? 1 : 0 } + (0..<960).map { ($0 + 3) % 12 < 6 ? 1 : 0 }
        func likeness(_ lines: [Float]) -> Float {
            lines.withUnsafeBufferPointer { PatternDetector.correlation($0, 0, 960, from: 100, through: 300, length: 960, maxShift: 6) }
        }
        let (randomLikeness, stripesLikeness) = (likeness(random), likeness(stripes))
        #expect(randomLikeness < PatternDetector.likeness, "\(randomLikeness)")
        #expect(stripesLikeness > 0.9, "\(stripesLikeness)")
    }
}
