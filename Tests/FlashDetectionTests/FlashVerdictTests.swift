import Foundation
import TestSupport
import Testing

@testable import FlashDetection

/// Verdicts on videos made in memory whose flashing is known by construction (320×240 unless said otherwise; 30 fps;
/// transitions fall on frames, so incident times are exact to the frame: checked to ±1 frame). The pictures are the
/// ones the ffmpeg CLI drew for these tests before (the same codes, areas and timing); the decode-through cases are
/// in ChecksTests' FlashDecodeTests.
@Suite struct FlashVerdictTests {
    let frame = 1.0 / 30
    static let grey = 128

    private func expectSpan(
        _ incident: FlashIncident?, _ start: Double, _ end: Double, frame: Double = 1.0 / 30, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let incident else {
            Issue.record("no incident", sourceLocation: sourceLocation)
            return
        }
        #expect(abs(incident.start - start) <= frame + 1e-6, "start \(incident.start), expected \(start)", sourceLocation: sourceLocation)
        #expect(abs(incident.end - end) <= frame + 1e-6, "end \(incident.end), expected \(end)", sourceLocation: sourceLocation)
    }

    /// A picture of grey with the rectangle at (x, y), w×h, in `code`.
    private func rectangle(_ x: Int, _ y: Int, _ w: Int, _ h: Int, code: Int, width: Int = 320, height: Int = 240, background: Int = grey)
        -> SyntheticPicture
    {
        SyntheticPicture(width: width, height: height, code: background).filling(x: x, y: y, width: w, height: h, code: code)
    }

    /// The rectangle white then black, changing every `period` frames, on grey.
    private func flashingRectangle(_ x: Int, _ y: Int, _ w: Int, _ h: Int, period: Int = 3, seconds: Double = 3, width: Int = 320, height: Int = 240)
        -> SyntheticVideo
    {
        let pictures = [235, 16].map { rectangle(x, y, w, h, code: $0, width: width, height: height) }
        return SyntheticVideo(width: width, height: height, frames: Int(seconds * 30)) { pictures[$0 / period % 2] }
    }

    /// Around the three-flashes line: a toggle every 6 frames is 2.5 flashes/s, 5 is exactly 3 (allowed by WCAG, not by
    /// the Korean band), 4 is 3.75, 3 is 5.
    @Test func ratesAroundThreeFlashes() {
        #expect(!SyntheticVideo.toggling(a: 235, b: 16, period: 6).analyse().fails)
        let three = SyntheticVideo.toggling(a: 235, b: 16, period: 5)
        #expect(!three.analyse().fails)
        let korean = three.analyse(profile: "kwcag")
        #expect(korean.fails)
        #expect(korean.incidents.map(\.kind) == [.general])
        expectSpan(korean.incidents.first, 5 * frame, 115 * frame)
        // A 30 fps video shows at most 15 flashes a second: the top of the 3–50 band cannot be judged.
        #expect(korean.samplingLimit == 15)

        let fast = SyntheticVideo.toggling(a: 235, b: 16, period: 4).analyse()
        #expect(fast.fails)
        #expect(fast.incidents.map(\.kind) == [.general])
        // Transitions at frames 4, 8 … 116: the first failing second starts at the first of them.
        expectSpan(fast.incidents.first, 4 * frame, 116 * frame)
        #expect(SyntheticVideo.toggling(a: 235, b: 16, period: 3).analyse().incidents.first?.peakFlashesPerSecond == 5)
    }

    /// A flashing square on grey: 5×5 blocks is 19% of a 10° field (13×10 blocks at 320 px wide), 6×6 is 28%.
    @Test func areaAroundAQuarterOfTheField() {
        #expect(!flashingRectangle(144, 104, 40, 40).analyse().fails)
        let square = flashingRectangle(144, 96, 48, 48)
        let larger = square.analyse()
        #expect(larger.fails)
        #expect(larger.incidents.map(\.kind) == [.general])
        expectSpan(larger.incidents.first, 3 * frame, 87 * frame)
        #expect(abs((larger.incidents.first?.peakFieldArea ?? 0) - 0.277) < 0.0005)
        // The same square is far below 25% of the whole screen (BT.1702).
        #expect(!square.analyse(profile: "bt1702").fails)
    }

    /// 25% of the whole frame (BT.1702): 144×128 is 24%, 160×128 is 26.7%.
    @Test func areaAroundAQuarterOfTheFrame() {
        #expect(!flashingRectangle(0, 0, 144, 128).analyse(profile: "bt1702").fails)
        let larger = flashingRectangle(0, 0, 160, 128).analyse(profile: "bt1702")
        #expect(larger.fails)
        #expect(larger.incidents.map(\.kind) == [.general])
        expectSpan(larger.incidents.first, 3 * frame, 87 * frame)
    }

    /// At 1080p the analysis reads 32-px blocks, one row each: a square of 10×9 blocks is 30% of the 10° field (20×15
    /// blocks), 10×6 blocks 20%.
    @Test func areaAtFullHD() {
        func square(height: Int) -> SyntheticVideo {
            flashingRectangle(640, 320, 320, height, seconds: 2, width: 1920, height: 1080)
        }
        let larger = square(height: 288).analyse()
        #expect(larger.fails)
        #expect(abs((larger.incidents.first?.peakFieldArea ?? 0) - 0.3) < 0.0005)
        expectSpan(larger.incidents.first, 3 * frame, 57 * frame)
        #expect(!square(height: 192).analyse().fails)
    }

    /// Luminance changes of 0.08 (not a transition) and 0.12 (a transition), from a darker state of 0.20.
    @Test func changesAroundATenth() {
        let base = SignalLevels.lumaCode(forLuminance: 0.20)
        #expect(!SyntheticVideo.toggling(a: base, b: SignalLevels.lumaCode(forLuminance: 0.28), period: 3).analyse().fails)
        let large = SyntheticVideo.toggling(a: base, b: SignalLevels.lumaCode(forLuminance: 0.32), period: 3).analyse()
        #expect(large.fails)
        #expect(large.incidents.map(\.kind) == [.general])
        expectSpan(large.incidents.first, 3 * frame, 117 * frame)
    }

    /// Between 0.75 and 1.0 the darker state is below 0.80 (flashing); between 0.85 and 1.0 it is not.
    @Test func darkerStateAroundEightTenths() {
        let dark = SyntheticVideo.toggling(a: 235, b: SignalLevels.lumaCode(forLuminance: 0.75), period: 3).analyse()
        #expect(dark.fails)
        #expect(dark.incidents.map(\.kind) == [.general])
        expectSpan(dark.incidents.first, 3 * frame, 117 * frame)
        let bright = SyntheticVideo.toggling(a: 235, b: SignalLevels.lumaCode(forLuminance: 0.85), period: 3)
        #expect(!bright.analyse().fails)
        // WCAG 2.3.2 (AAA) has no darker-state exception.
        #expect(bright.analyse(profile: "wcag-aaa").fails)
    }

    /// Saturated red against a grey of the same relative luminance (0.2126): red flashing, no general flashing.
    @Test func redAgainstEquallyLuminousGrey() {
        let pictures = [(255.0, 0.0, 0.0), (127.0, 127.0, 127.0)].map { colour in
            SyntheticPicture(width: 320, height: 240) { _, _ in colour }
        }
        let video = SyntheticVideo(width: 320, height: 240, frames: 90) { pictures[$0 / 3 % 2] }
        let report = video.analyse()
        #expect(report.fails)
        #expect(report.incidents.map(\.kind) == [.red])
        expectSpan(report.incidents.first, 3 * frame, 87 * frame)
        // Without the red rule the same video passes: its luminance does not flash.
        #expect(!video.analyse { $0.detectsRed = false }.fails)
    }

    /// A checkerboard of 40-px squares inverting 10 times a second: the frame's mean never changes.
    @Test func invertingCheckerboard() {
        let pictures = (0..<2).map { phase in
            SyntheticPicture(width: 320, height: 240) { x, y in (x / 40 + y / 40 + phase) % 2 == 0 ? 235 : 16 }
        }
        let report = SyntheticVideo(width: 320, height: 240, frames: 90) { pictures[$0 / 3 % 2] }.analyse()
        #expect(report.fails)
        #expect(report.incidents.map(\.kind) == [.general])
        expectSpan(report.incidents.first, 3 * frame, 87 * frame)
    }

    /// Vertical 8-px stripes in a block-aligned rectangle on grey, alternating 5 times a second: `reversing`, each stripe
    /// against its neighbours (the pattern reverses its contrast), else all of them together (in phase).
    private func stripes(reversing: Bool, x: Int, y: Int, width: Int, height: Int) -> SyntheticVideo {
        let pictures = (0..<2).map { phase in
            SyntheticPicture(width: 320, height: 240) { px, py in
                guard (x..<(x + width)).contains(px), (y..<(y + height)).contains(py) else { return Self.grey }
                let stripe = reversing ? (px - x) / 8 + phase : phase
                return stripe % 2 == 0 ? 235 : 16
            }
        }
        return SyntheticVideo(width: 320, height: 240, frames: 90) { pictures[$0 / 3 % 2] }
    }

    /// WCAG judges "the combined area of flashes occurring concurrently": a 56×56 square of stripes (37.7% of the 10°
    /// field) reversing its contrast has 4 of its 7 stripes going light while 3 go dark, so neither way alone reaches 25%
    /// (21.5%), but together they cover the square — it fails as the same square flashing in phase does.
    @Test func reversingStripesCountTheirCombinedArea() {
        for reversing in [true, false] {
            let report = stripes(reversing: reversing, x: 128, y: 88, width: 56, height: 56).analyse()
            #expect(report.fails, "reversing: \(reversing)")
            #expect(report.incidents.map(\.kind) == [.general])
            #expect(abs((report.incidents.first?.peakFieldArea ?? 0) - 0.377) < 0.0005)
            expectSpan(report.incidents.first, 3 * frame, 87 * frame)
        }
        // Under BT.1702 a reversing block of 25 stripes over 41.7% of the screen (13 stripes one way: 21.7%) fails.
        let block = stripes(reversing: true, x: 56, y: 40, width: 200, height: 160).analyse(profile: "bt1702")
        let general = block.incidents.first { $0.kind == .general }
        #expect(block.fails)
        #expect(abs((general?.peakFrameArea ?? 0) - 0.417) < 0.0005)
        expectSpan(general, 3 * frame, 87 * frame)
    }

    /// The left half flashing by ΔL 0.15 (0.30 ⇄ 0.45), the right half still.
    @Test func halfFrameFlash() {
        let codes = [0.45, 0.30].map(SignalLevels.lumaCode(forLuminance:))
        let pictures = codes.map { rectangle(0, 0, 160, 240, code: $0) }
        let report = SyntheticVideo(width: 320, height: 240, frames: 90) { pictures[$0 / 3 % 2] }.analyse()
        #expect(report.fails)
        #expect(report.incidents.map(\.kind) == [.general])
        #expect(report.incidents.first?.peakFrameArea == 0.5)
        expectSpan(report.incidents.first, 3 * frame, 87 * frame)
    }

    /// Black to white over 2 s and back: a slow ramp is one transition, not many.
    @Test func slowFades() {
        let video = SyntheticVideo(width: 320, height: 240, frames: 120) { n in
            let step: Double = Double(n < 60 ? n : 120 - n)
            return SyntheticPicture(width: 320, height: 240, code: Int(16.0 + 219.0 * step / 60.0))
        }
        #expect(!video.analyse().fails)
    }

    /// A hard cut between two scenes every second: one transition a second.
    @Test func hardCutsOnceASecond() {
        let scenes = [
            SyntheticPicture(width: 320, height: 240) { x, _ in 40 + x / 4 }, SyntheticPicture(width: 320, height: 240) { _, y in 220 - y / 4 },
        ]
        #expect(!SyntheticVideo(width: 320, height: 240, frames: 150) { scenes[$0 / 30 % 2] }.analyse().fails)
    }

    /// 60 fps: a toggle every 6 frames is 5 flashes a second; times in sixtieths.
    @Test func sixtyFramesPerSecond() {
        let report = SyntheticVideo.toggling(a: 235, b: 16, period: 6, fps: 60, seconds: 3).analyse()
        #expect(report.fails)
        #expect(report.incidents.map(\.kind) == [.general])
        expectSpan(report.incidents.first, 6.0 / 60, 174.0 / 60, frame: 1.0 / 60)
        #expect(abs(report.measuredFPS - 60) < 1e-6)
    }

    /// 10-bit pictures (the codes of 10-bit limited range: 940 white, 64 black).
    @Test func tenBitPictures() {
        let pictures = [940, 64].map { SyntheticPicture(width: 320, height: 240, bitDepth: 10, code: $0) }
        let report = SyntheticVideo(width: 320, height: 240, frames: 90, bitDepth: 10) { pictures[$0 / 3 % 2] }.analyse()
        #expect(report.fails)
        #expect(report.incidents.map(\.kind) == [.general])
        expectSpan(report.incidents.first, 3 * frame, 87 * frame)
    }

    /// Portrait 180×320: the 10° field is a third of the width (60×45 px), so a 40×40 square is over half a field
    /// (fail) but 3% of the screen (BT.1702 pass).
    @Test func portraitVideo() {
        let video = flashingRectangle(64, 136, 40, 40, width: 180, height: 320)
        let report = video.analyse()
        #expect(report.fails)
        #expect(report.incidents.map(\.kind) == [.general])
        expectSpan(report.incidents.first, 3 * frame, 87 * frame)
        #expect(!video.analyse(profile: "bt1702").fails)
    }

    /// 20 s of grey with one second of 5 Hz flashing at 12 s.
    @Test func longVideoWithOneShortBurst() {
        let grey = SyntheticPicture(width: 160, height: 120, code: Self.grey)
        let flashes = [235, 16].map { SyntheticPicture(width: 160, height: 120, code: $0) }
        let report = SyntheticVideo(width: 160, height: 120, frames: 600) { n in (360...389).contains(n) ? flashes[(n - 360) % 6 / 3] : grey }
            .analyse()
        #expect(report.fails)
        #expect(report.incidents.map(\.kind) == [.general])
        // Transitions at frames 360 (grey → white) … 390 (black → grey).
        expectSpan(report.incidents.first, 360 * frame, 390 * frame)
    }

    /// 2.5 flashes a second (5 transitions) held for 6 s: not a failure, but the extended-risk warning.
    @Test func extendedRisk() {
        let report = SyntheticVideo.toggling(a: 235, b: 16, period: 6, seconds: 7).analyse()
        #expect(!report.fails)
        #expect(report.incidents.map(\.kind) == [.extended])
    }

    /// HDR is measured through BT.2100 with 203 cd/m² as white. PQ 50 ⇄ 100 cd/m² (0.25 ⇄ 0.49) flashes — the SDR
    /// approximation (the signal read through the sRGB curve: 0.16 ⇄ 0.22) missed it — while 203 ⇄ 1000 cd/m², all at
    /// or above reference white, does not — the approximation (0.30 ⇄ 0.52) failed it. HLG 50% ⇄ 75% signal (51 ⇄ 203
    /// cd/m² on the 1000 cd/m² reference display) flashes; 75% ⇄ 90% (203 ⇄ 522 cd/m²) does not.
    @Test(arguments: [
        ("PQ 50 ⇄ 100 cd/m²", TransferFunction.pq, SignalLevels.pqSignal(nits: 50), SignalLevels.pqSignal(nits: 100), true),
        ("PQ 203 ⇄ 1000 cd/m²", .pq, SignalLevels.pqSignal(nits: 203), SignalLevels.pqSignal(nits: 1000), false),
        ("HLG 50% ⇄ 75%", .hlg, 0.50, 0.75, true), ("HLG 75% ⇄ 90%", .hlg, 0.75, 0.90, false),
    ])
    func hdrLuminanceThroughBT2100(name: String, transfer: TransferFunction, from a: Double, to b: Double, fails: Bool) {
        let color = PictureColor(kr: 0.2627, kb: 0.0593, fullRange: false, bitDepth: 10, transfer: transfer, wideGamut: true)
        let pictures = [a, b].map { SyntheticPicture(width: 160, height: 120, bitDepth: 10, code: Int((64 + 876 * $0).rounded())) }
        let report = SyntheticVideo(width: 160, height: 120, frames: 60, color: color) { pictures[$0 / 3 % 2] }.analyse()
        #expect(report.fails == fails, "\(name)")
        #expect(report.incidents.map(\.kind) == (fails ? [.general] : []), "\(name)")
        if fails { expectSpan(report.incidents.first, 3 * frame, 57 * frame) }
    }
}
