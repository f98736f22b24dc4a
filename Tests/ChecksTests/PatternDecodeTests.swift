import Findings
import FlashDetection
import Foundation
import TestTraits
import Testing

/// `pattern.regular` through real decoding: a still pattern (a warning) and a moving one (an error) as findings, the
/// rule's profiles and area basis in its message, and busy real scenes that are no pattern — the ffmpeg CLI's test
/// pattern, a Mandelbrot zoom and Conway's Life, in H.264. The verdicts shape by shape are FlashDetectionTests'
/// PatternVerdictTests, on pictures in memory.
@Suite(.tags(.media), .notInFastRun) struct PatternDecodeTests {
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

    /// Still stripes (6 pairs over 30% of the screen) fail under bt1702 (BT.1702 and Ofcom: harmful regular patterns
    /// should not be used) and warn under wcag (no pattern criterion); the same stripes moving 2 px a frame fail under
    /// both, as an error.
    @Test func stillPatternsFailUnderBT1702AndWarnUnderWCAG() throws {
        let stripes = try clip("v6", "if(lt(mod(X-88,24),12),235,16)", region: (88, 40, 144, 160))
        let (still, found) = try pattern(stripes)
        #expect(still.verdict == .fail)
        #expect(still.rules == ["pattern.regular"])
        #expect(found?.severity == .error)
        let (wcag, warned) = try pattern(stripes, profile: "wcag") { $0.detectsPatterns = true }
        #expect(wcag.verdict == .warn && warned?.severity == .warning)
        #expect(found?.data["kind"] == .string("stripes") && found?.data["pairs"] == .integer(6) && found?.data["changing"] == .bool(false))
        #expect(found?.data["peakFrameArea"] == .number(0.3))
        #expect(
            found?.message.hasPrefix("regular pattern: stripes with 6 light–dark pairs over 30% of the screen for 2.0 s, still") == true,
            "\(found?.message ?? "")")
        let moving = try clip("moving", "if(lt(mod(X-88+2*N,24),12),235,16)", region: (88, 40, 144, 160))
        for profile in ["bt1702", "wcag"] {
            let (result, drifting) = try pattern(moving, profile: profile) { $0.detectsPatterns = true }
            #expect(result.verdict == .fail, "\(profile)")
            #expect(drifting?.severity == .error && drifting?.data["changing"] == .bool(true), "\(profile)")
        }
    }

    /// The rule is on for bt1702 only, and available for every profile (WCAG's area: of the worst 10° field).
    @Test func onForBT1702AvailableEverywhere() throws {
        let stripes = try clip("v6", "if(lt(mod(X-88,24),12),235,16)", region: (88, 40, 144, 160))
        #expect(try pattern(stripes, profile: "wcag").1 == nil)
        let (_, field) = try pattern(stripes, profile: "wcag") { $0.detectsPatterns = true }
        #expect(field?.message.contains("of the worst 10° field") == true)
        #expect(try pattern(stripes) { $0.detectsPatterns = false }.1 == nil)
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
}
