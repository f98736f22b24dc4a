import Foundation
import Testing

@testable import FlashDetection

/// Regular patterns in videos made in memory whose patterns are known by construction (320×240, 30 fps, 2 s, light 235
/// and dark 16 on grey 128; judged with `bt1702`, where the rule is on and the area is a fraction of the screen). The
/// pictures are the ones the ffmpeg CLI drew for these tests before; busy real scenes, and how a pattern becomes a
/// finding, are in ChecksTests' PatternDecodeTests.
@Suite struct PatternVerdictTests {
    let frame = 1.0 / 30

    /// A video whose code at (x, y) is `code(x, y, phase)` inside `region` (x, y, width, height) and grey outside, frame
    /// n showing the picture of phase `phase(n)` (`phases` of them, each drawn once; one by default: a still picture).
    private func video(
        region: (Int, Int, Int, Int)? = nil, seconds: Int = 2, phases: Int = 1, phase: @escaping (Int) -> Int = { _ in 0 },
        _ code: @escaping (Int, Int, Int) -> Int
    ) -> SyntheticVideo {
        let pictures = (0..<phases).map { p in
            SyntheticPicture(width: 320, height: 240) { x, y in
                if let (rx, ry, rw, rh) = region, !(rx..<(rx + rw)).contains(x) || !(ry..<(ry + rh)).contains(y) { return 128 }
                return code(x, y, p)
            }
        }
        return SyntheticVideo(width: 320, height: 240, frames: seconds * 30) { pictures[phase($0)] }
    }

    /// Light and dark stripes `period` px apart across (vertical) or down (horizontal) from `origin`.
    private func stripes(from origin: Int, period: Int = 24, horizontal: Bool = false) -> (Int, Int, Int) -> Int {
        { x, y, _ in ((horizontal ? y : x) - origin) % period < period / 2 ? 235 : 16 }
    }

    private func pattern(_ video: SyntheticVideo, profile: String = "bt1702", adjust: (inout FlashConfiguration) -> Void = { _ in }) -> (
        FlashReport, FlashIncident?
    ) {
        let report = video.analyse(profile: profile, adjust: adjust)
        return (report, report.incidents.first { $0.kind == .pattern })
    }

    private func expectPattern(
        _ incident: FlashIncident?, kind: PatternKind, pairs: Int, area: Double, start: Double = 0, end: Double = 2, changing: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let incident, let details = incident.pattern else {
            Issue.record("no pattern incident", sourceLocation: sourceLocation)
            return
        }
        #expect(details.kind == kind, sourceLocation: sourceLocation)
        #expect(details.pairs == pairs, sourceLocation: sourceLocation)
        #expect(details.changing == changing, sourceLocation: sourceLocation)
        #expect(abs(incident.peakFrameArea - area) < 0.005, "area \(incident.peakFrameArea), expected \(area)", sourceLocation: sourceLocation)
        // Looks come every tenth of a second until a pattern is seen: its start may be up to 2 frames late.
        #expect(abs(incident.start - start) <= 2 * frame + 0.002, "start \(incident.start)", sourceLocation: sourceLocation)
        #expect(abs(incident.end - end) <= 0.002, "end \(incident.end)", sourceLocation: sourceLocation)
    }

    /// 12-px vertical stripes (a 24-px period): 6 pairs over 144×160 px (30% of the screen) is a pattern; 4 pairs over
    /// 96×240 (30%) and 6 pairs over 144×104 (19.5%) are not.
    @Test func pairsAndArea() {
        let (six, found) = pattern(video(region: (88, 40, 144, 160), stripes(from: 88)))
        #expect(six.fails, "a still pattern fails under bt1702")
        #expect(!pattern(video(region: (88, 40, 144, 160), stripes(from: 88)), profile: "wcag") { $0.detectsPatterns = true }.0.fails, "and warns under wcag")
        #expect(six.incidents.map(\.kind) == [.pattern])
        expectPattern(found, kind: .stripes, pairs: 6, area: 0.3)
        #expect(pattern(video(region: (112, 0, 96, 240), stripes(from: 112))).1 == nil)
        #expect(pattern(video(region: (88, 68, 144, 104), stripes(from: 88))).1 == nil)
        // Horizontal stripes, 6 pairs over 240×144 (45%).
        let (_, horizontal) = pattern(video(region: (40, 48, 240, 144), stripes(from: 48, horizontal: true)))
        expectPattern(horizontal, kind: .stripes, pairs: 6, area: 0.45)
    }

    /// Shown for 0.4 s (frames 30–41) the stripes are not a pattern; for 0.6 s (frames 30–47) they are, from 1.0 to 1.6 s.
    @Test func halfASecond() {
        func shown(_ frames: ClosedRange<Int>) -> SyntheticVideo {
            let stripes = SyntheticPicture(width: 320, height: 240) { x, y in
                (88..<232).contains(x) && (40..<200).contains(y) ? ((x - 88) % 24 < 12 ? 235 : 16) : 128
            }
            let grey = SyntheticPicture(width: 320, height: 240, code: 128)
            return SyntheticVideo(width: 320, height: 240, frames: 60) { frames.contains($0) ? stripes : grey }
        }
        let short = pattern(shown(30...41))
        #expect(short.1 == nil)
        #expect(short.0.incidents.isEmpty)
        expectPattern(pattern(shown(30...47)).1, kind: .stripes, pairs: 6, area: 0.3, start: 1, end: 1.6)
    }

    /// Moving (2 px a frame) and reversing (every third of a second) stripes are the stronger finding.
    @Test func movingAndReversing() {
        let (moving, drifting) = pattern(
            video(region: (88, 40, 144, 160), phases: 12, phase: { $0 % 12 }) { x, _, p in (x - 88 + 2 * p) % 24 < 12 ? 235 : 16 })
        #expect(moving.fails)
        #expect(drifting?.pattern?.changing == true)
        let (reversing, reversed) = pattern(
            video(region: (88, 40, 144, 160), phases: 2, phase: { $0 / 10 % 2 }) { x, _, p in ((x - 88) / 12 + p) % 2 == 0 ? 235 : 16 })
        #expect(reversing.fails)
        #expect(reversing.incidents.map(\.kind) == [.pattern])  // 1.5 reversals a second: no flashing failure
        expectPattern(reversed, kind: .stripes, pairs: 6, area: 0.32, changing: true)
    }

    /// A checkerboard of 16-px squares (192×128: 6 pairs across, 32%), concentric rings (8-px rings within a radius of
    /// 100 px) and a fan of 32 light and 32 dark rays over the whole picture.
    @Test func checkerboardRingsAndRays() {
        let (_, checker) = pattern(video(region: (64, 56, 192, 128)) { x, y, _ in ((x - 64) / 16 + (y - 56) / 16) % 2 == 0 ? 235 : 16 })
        expectPattern(checker, kind: .checkerboard, pairs: 6, area: 0.35)
        let (_, rings) = pattern(
            video { x, y, _ in
                let radius = hypot(Double(x - 160), Double(y - 120))
                return radius < 100 ? (radius.truncatingRemainder(dividingBy: 16) < 8 ? 235 : 16) : 128
            })
        #expect(rings?.pattern?.kind == .curved)
        #expect(rings?.pattern?.changing == false)
        let (_, rays) = pattern(
            video { x, y, _ in
                Int(((atan2(Double(y - 120), Double(x - 160)) + Double.pi) * 32 / Double.pi).rounded(.down)) % 2 < 1 ? 235 : 16
            })
        #expect(rays?.pattern?.kind == .curved)
        #expect(rays?.pattern?.changing == false)
    }

    /// The rule is on for bt1702 only, and available for every profile (WCAG's area: of the worst 10° field).
    @Test func onForBT1702AvailableEverywhere() {
        let stripes = video(region: (88, 40, 144, 160), stripes(from: 88))
        #expect(pattern(stripes, profile: "wcag").1 == nil)
        #expect(pattern(stripes, profile: "wcag") { $0.detectsPatterns = true }.1 != nil)
        #expect(pattern(stripes) { $0.detectsPatterns = false }.1 == nil)
    }
}
