import Findings
import Foundation
import TestSupport
import TestTraits
import Testing

/// The flash check through real decoding, one case per codec path and per profile, on clips the ffmpeg CLI draws
/// (320×240, 30 fps unless said otherwise): FFV1 under each profile, x265 10-bit, HDR tagged PQ and HLG, colour
/// converted to 4:2:0 by FFmpeg, 60 fps, and real moving content in H.264. Each asserts what the check makes of the
/// analysis — rules, severities, the data findings carry, metrics — and the incident times (±1 frame). The verdicts
/// themselves, shape by shape, are FlashDetectionTests' FlashVerdictTests, on pictures in memory.
@Suite(.tags(.media), .notInFastRun) struct FlashDecodeTests {
    let frame = 1.0 / 30

    private func expectSpan(
        _ finding: Finding?, _ start: Double, _ end: Double, frame: Double = 1.0 / 30,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let finding, let from = finding.start, let to = finding.end else {
            Issue.record("no timed finding", sourceLocation: sourceLocation)
            return
        }
        #expect(abs(from - start) <= frame + 1e-6, "start \(from), expected \(start)", sourceLocation: sourceLocation)
        #expect(abs(to - end) <= frame + 1e-6, "end \(to), expected \(end)", sourceLocation: sourceLocation)
    }

    /// FFV1 clips under each profile. WCAG: a toggle every 4 frames fails with its span, and a 48-px square's field
    /// area is said rounded to the thousandth; the Korean guideline: a toggle every 5 frames (exactly 3 flashes a
    /// second) fails, with the warning that a 30 fps file cannot show the top of the 3–50 band; BT.1702: a rectangle over
    /// 26.7% of the screen fails; WCAG AAA: flashing between 0.85 and 1.0 fails (no darker-state exception).
    @Test func eachProfileThroughFFV1() throws {
        let fast = try GeneratedClips.check(GeneratedClips.toggling("p4.mkv", a: 235, b: 16, period: 4))
        #expect(fast.verdict == .fail)
        #expect(fast.rules == ["flash.general"])
        expectSpan(fast.finding("flash.general"), 4 * frame, 116 * frame)
        #expect(fast.metrics["framesAnalysed"]?.intValue == 120)

        let square = try GeneratedClips.make(
            "sq48.mkv",
            source:
                "nullsrc=s=320x240:r=30:d=3,format=yuv420p,geq=lum='if(between(X,144,191)*between(Y,96,143),if(lt(mod(floor(N/3),2),1),235,16),128)':cb=128:cr=128"
        )
        #expect(try GeneratedClips.check(square).finding("flash.general")?.data["peakFieldArea"] == .number(0.277))

        let korean = try GeneratedClips.check(GeneratedClips.toggling("p5.mkv", a: 235, b: 16, period: 5), profile: "kwcag")
        #expect(korean.verdict == .fail)
        #expect(korean.rules == ["flash.general", "flash.sampling-limit"])
        expectSpan(korean.finding("flash.general"), 5 * frame, 115 * frame)
        #expect(korean.finding("flash.sampling-limit")?.severity == .warning)

        let rectangle = try GeneratedClips.make(
            "r160.mkv",
            source:
                "nullsrc=s=320x240:r=30:d=3,format=yuv420p,geq=lum='if(between(X,0,159)*between(Y,0,127),if(lt(mod(floor(N/3),2),1),235,16),128)':cb=128:cr=128"
        )
        let screen = try GeneratedClips.check(rectangle, profile: "bt1702")
        #expect(screen.verdict == .fail)
        #expect(screen.rules == ["flash.general"])
        expectSpan(screen.finding("flash.general"), 3 * frame, 87 * frame)

        let bright = try GeneratedClips.toggling("dark85.mkv", a: 235, b: SignalLevels.lumaCode(forLuminance: 0.85), period: 3)
        #expect(try GeneratedClips.check(bright).verdict == .pass)
        #expect(try GeneratedClips.check(bright, profile: "wcag-aaa").verdict == .fail)
    }

    /// Saturated red against a grey of the same relative luminance (0.2126), drawn in RGB and converted to 4:2:0 by
    /// FFmpeg: the decoded chroma planes give red flashing and no general flashing.
    @Test func redThroughDecodedChroma() throws {
        let clip = try GeneratedClips.make(
            "red.mkv",
            source:
                "nullsrc=s=320x240:r=30:d=3,format=gbrp,geq=r='if(lt(mod(floor(N/3),2),1),255,127)':g='if(lt(mod(floor(N/3),2),1),0,127)':b='if(lt(mod(floor(N/3),2),1),0,127)',format=yuv420p"
        )
        let result = try GeneratedClips.check(clip)
        #expect(result.verdict == .fail)
        #expect(result.rules == ["flash.red"])
        expectSpan(result.finding("flash.red"), 3 * frame, 87 * frame)
        #expect(try GeneratedClips.check(clip) { $0.detectsRed = false }.verdict == .pass)
    }

    /// 60 fps: a toggle every 6 frames is 5 flashes a second; times in sixtieths, and the rate in the metrics.
    @Test func sixtyFramesPerSecond() throws {
        let clip = try GeneratedClips.toggling("p6at60.mkv", a: 235, b: 16, period: 6, rate: 60, seconds: 3)
        let result = try GeneratedClips.check(clip)
        #expect(result.verdict == .fail)
        #expect(result.rules == ["flash.general"])
        expectSpan(result.finding("flash.general"), 6.0 / 60, 174.0 / 60, frame: 1.0 / 60)
        #expect(result.metrics["fps"] == .number(60))
    }

    /// 10-bit HEVC (x265, yuv420p10le).
    @Test func tenBitHEVC() throws {
        let clip = try GeneratedClips.make(
            "hevc10.mp4", source: "nullsrc=s=320x240:r=30:d=3,format=yuv420p10le,geq=lum='if(lt(mod(floor(N/3),2),1),940,64)':cb=512:cr=512",
            arguments: ["-c:v", "libx265", "-x265-params", "log-level=error:lossless=1", "-pix_fmt", "yuv420p10le"])
        let result = try GeneratedClips.check(clip)
        #expect(result.verdict == .fail)
        #expect(result.rules == ["flash.general"])
        expectSpan(result.finding("flash.general"), 3 * frame, 87 * frame)
    }

    /// A file's HDR tags are read and used: PQ 50 ⇄ 100 cd/m² in lossless HEVC and HLG 50% ⇄ 75% in FFV1 (BT.2020
    /// primaries and matrix) flash, with the note of how HDR was measured and `hdr` in the metrics; PQ 203 ⇄ 1000 cd/m²
    /// (all at or above reference white) passes.
    @Test func hdrTagsAreReadFromTheFile() throws {
        let cases: [(name: String, transfer: String, from: Double, to: Double, fails: Bool)] = [
            ("pq-50-100.mp4", "smpte2084", SignalLevels.pqSignal(nits: 50), SignalLevels.pqSignal(nits: 100), true),
            ("pq-203-1000.mp4", "smpte2084", SignalLevels.pqSignal(nits: 203), SignalLevels.pqSignal(nits: 1000), false),
            ("hlg-50-75.mkv", "arib-std-b67", 0.50, 0.75, true),
        ]
        for test in cases {
            let codes = [test.from, test.to].map { Int((64 + 876 * $0).rounded()) }
            let tags = ["-color_trc", test.transfer, "-color_primaries", "bt2020", "-colorspace", "bt2020nc"]
            let codec =
                test.transfer == "smpte2084"
                ? ["-c:v", "libx265", "-x265-params", "log-level=error:lossless=1", "-pix_fmt", "yuv420p10le"] : ["-c:v", "ffv1"]
            let clip = try GeneratedClips.make(
                test.name,
                source: "nullsrc=s=160x120:r=30:d=2,format=yuv420p10le,geq=lum='if(lt(mod(floor(N/3),2),1),\(codes[0]),\(codes[1]))':cb=512:cr=512",
                arguments: codec + tags)
            let result = try GeneratedClips.check(clip)
            #expect(result.verdict == (test.fails ? .fail : .pass), "\(test.name)")
            #expect(result.rules == (test.fails ? ["flash.general"] : []), "\(test.name)")
            if test.fails { expectSpan(result.finding("flash.general"), 3 * frame, 57 * frame) }
            #expect(result.finding("flash.hdr")?.message.contains("BT.2100 \(test.transfer == "smpte2084" ? "PQ" : "HLG")") == true)
            #expect(result.metrics["hdr"] == .bool(true))
        }
    }

    /// Ordinary moving content in H.264: ffmpeg's test pattern and a Mandelbrot zoom.
    @Test func noFalsePositives() throws {
        let pattern = try GeneratedClips.make("testsrc2.mp4", source: "testsrc2=s=320x240:r=30:d=6", arguments: ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        #expect(try GeneratedClips.check(pattern).verdict == .pass)
        let mandelbrot = try GeneratedClips.make(
            "mandelbrot.mp4", source: "mandelbrot=s=320x240:r=30,trim=duration=6", arguments: ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        #expect(try GeneratedClips.check(mandelbrot).verdict == .pass)
    }
}
