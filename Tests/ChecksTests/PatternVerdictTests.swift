import Foundation
import Testing
import Checks
import Findings
import FlashDetection

/// `pattern.regular` on clips whose patterns are known by construction (320×240, 30 fps, 2 s, light 235 and dark
/// 16 on grey 128; judged with `bt1702`, where the rule is on and the area is a fraction of the screen).
@Suite(.serialized) struct PatternVerdictTests {
    let frame = 1.0 / 30

    /// A clip whose luma is `expression` (in X, Y, N) inside `region` (x, y, width, height) and grey outside.
    private func clip(_ name: String, _ expression: String, region: (Int, Int, Int, Int)? = nil, seconds: Int = 2) throws -> String {
        let inside = region.map { "between(X,\($0.0),\($0.0 + $0.2 - 1))*between(Y,\($0.1),\($0.1 + $0.3 - 1))" } ?? "1"
        return try GeneratedClips.make(
            "pattern-\(name).mkv", source: "nullsrc=s=320x240:r=30:d=\(seconds),format=yuv420p,geq=lum='if(\(inside),\(expression),128)':cb=128:cr=128")
    }

    private func pattern(_ path: String, profile: String = "bt1702", adjust: (inout FlashConfiguration) -> Void = { _ in }) throws -> (CheckResult, Finding?) {
        let result = try GeneratedClips.check(path, profile: profile, adjust: adjust)
        return (result, result.finding("pattern.regular"))
    }

    private func expectPattern(
        _ finding: Finding?, kind: String, pairs: Int, area: Double, start: Double = 0, end: Double = 2, changing: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let finding else {
            Issue.record("no pattern.regular finding", sourceLocation: sourceLocation)
            return
        }
        #expect(finding.data["kind"] == .string(kind), sourceLocation: sourceLocation)
        #expect(finding.data["pairs"] == .integer(Int64(pairs)), sourceLocation: sourceLocation)
        #expect(finding.data["changing"] == .bool(changing), sourceLocation: sourceLocation)
        #expect(finding.severity == (changing ? .error : .warning), sourceLocation: sourceLocation)
        if case .number(let covered) = finding.data["peakFrameArea"] {
            #expect(abs(covered - area) < 0.005, "area \(covered), expected \(area)", sourceLocation: sourceLocation)
        } else {
            Issue.record("no area", sourceLocation: sourceLocation)
        }
        // Looks come every tenth of a second until a pattern is seen: its start may be up to 2 frames late.
        #expect(abs((finding.start ?? -1) - start) <= 2 * frame + 0.002, "start \(finding.start ?? -1)", sourceLocation: sourceLocation)
        #expect(abs((finding.end ?? -1) - end) <= 0.002, "end \(finding.end ?? -1)", sourceLocation: sourceLocation)
    }

    /// 12-px vertical stripes (a 24-px period): 6 pairs over 144×160 px (30% of the screen) is a pattern; 4 pairs
    /// over 96×240 (30%) and 6 pairs over 144×104 (19.5%) are not.
    @Test func pairsAndArea() throws {
        let (six, found) = try pattern(clip("v6", "if(lt(mod(X-88,24),12),235,16)", region: (88, 40, 144, 160)))
        #expect(six.verdict == .warn)
        #expect(six.rules == ["pattern.regular"])
        expectPattern(found, kind: "stripes", pairs: 6, area: 0.3)
        #expect(try pattern(clip("v4", "if(lt(mod(X-112,24),12),235,16)", region: (112, 0, 96, 240))).1 == nil)
        #expect(try pattern(clip("v6small", "if(lt(mod(X-88,24),12),235,16)", region: (88, 68, 144, 104))).1 == nil)
        // Horizontal stripes, 6 pairs over 240×144 (45%).
        let (_, horizontal) = try pattern(clip("h6", "if(lt(mod(Y-48,24),12),235,16)", region: (40, 48, 240, 144)))
        expectPattern(horizontal, kind: "stripes", pairs: 6, area: 0.45)
    }

    /// Shown for 0.4 s (frames 30–41) the stripes are not a pattern; for 0.6 s (frames 30–47) they are, from 1.0 to 1.6 s.
    @Test func halfASecond() throws {
        let short = try pattern(clip("s04", "if(between(N,30,41),if(lt(mod(X-88,24),12),235,16),128)", region: (88, 40, 144, 160)))
        #expect(short.1 == nil)
        #expect(short.0.verdict == .pass)
        let (_, long) = try pattern(clip("s06", "if(between(N,30,47),if(lt(mod(X-88,24),12),235,16),128)", region: (88, 40, 144, 160)))
        expectPattern(long, kind: "stripes", pairs: 6, area: 0.3, start: 1, end: 1.6)
    }

    /// Moving (2 px a frame) and reversing (every third of a second) stripes are the stronger finding: an error.
    @Test func movingAndReversing() throws {
        let (moving, drifting) = try pattern(clip("moving", "if(lt(mod(X-88+2*N,24),12),235,16)", region: (88, 40, 144, 160)))
        #expect(moving.verdict == .fail)
        #expect(drifting?.severity == .error && drifting?.data["changing"] == .bool(true))
        let (reversing, reversed) = try pattern(clip("reversing", "if(eq(mod(floor((X-88)/12)+floor(N/10),2),0),235,16)", region: (88, 40, 144, 160)))
        #expect(reversing.verdict == .fail)
        #expect(reversing.rules == ["pattern.regular"])  // 1.5 reversals a second: no flashing failure
        expectPattern(reversed, kind: "stripes", pairs: 6, area: 0.32, changing: true)
    }

    /// A checkerboard of 16-px squares (192×128: 6 pairs across, 32%), concentric rings (8-px rings within a
    /// radius of 100 px) and a fan of 32 light and 32 dark rays over the whole picture.
    @Test func checkerboardRingsAndRays() throws {
        let (_, checker) = try pattern(
            clip("checker", "if(eq(mod(floor((X-64)/16)+floor((Y-56)/16),2),0),235,16)", region: (64, 56, 192, 128)))
        expectPattern(checker, kind: "checkerboard", pairs: 6, area: 0.35)
        let (_, rings) = try pattern(clip("rings", "if(lt(hypot(X-160,Y-120),100),if(lt(mod(hypot(X-160,Y-120),16),8),235,16),128)"))
        #expect(rings?.data["kind"] == .string("curved"))
        #expect(rings?.severity == .warning)
        let (_, rays) = try pattern(clip("rays", "if(lt(mod(floor((atan2(Y-120,X-160)+PI)*32/PI),2),1),235,16)"))
        #expect(rays?.data["kind"] == .string("curved"))
        #expect(rays?.severity == .warning)
    }

    /// Busy scenes with no regular pattern: ffmpeg's moving test pattern, a Mandelbrot zoom, Conway's Life.
    @Test func busyScenesAreNotPatterns() throws {
        let scenes = [
            ("testsrc2.mp4", "testsrc2=s=320x240:r=30:d=4"),
            ("mandelbrot.mp4", "mandelbrot=s=320x240:r=30,trim=duration=4"),
            ("life.mp4", "life=s=320x240:r=30:seed=1:mold=10:ratio=0.5:death_color=#202020:life_color=#ffffff,trim=duration=4"),
        ]
        for (name, source) in scenes {
            let clip = try GeneratedClips.make("busy-\(name)", source: source, arguments: ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
            #expect(try pattern(clip).1 == nil, "\(name)")
            #expect(try pattern(clip, profile: "wcag") { $0.detectsPatterns = true }.1 == nil, "\(name), of the 10° field")
        }
        // Life at 1080p, where each one-pixel cell is half a sample: short regular runs by chance everywhere, which
        // the neighbouring lines do not repeat.
        let life = try GeneratedClips.make(
            "busy-life-1080p.mp4",
            source: "life=s=1920x1080:r=30:seed=1:mold=10:ratio=0.5:death_color=#202020:life_color=#ffffff,trim=duration=2",
            arguments: ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"])
        #expect(try pattern(life, profile: "wcag") { $0.detectsPatterns = true }.1 == nil)
    }

    /// The rule is on for bt1702 only, and available for every profile (WCAG's area: of the worst 10° field).
    @Test func onForBT1702AvailableEverywhere() throws {
        let stripes = try clip("v6", "if(lt(mod(X-88,24),12),235,16)", region: (88, 40, 144, 160))
        #expect(try pattern(stripes, profile: "wcag").1 == nil)
        let (_, field) = try pattern(stripes, profile: "wcag") { $0.detectsPatterns = true }
        #expect(field?.message.contains("of the worst 10° field") == true)
        #expect(try pattern(stripes) { $0.detectsPatterns = false }.1 == nil)
    }
}
