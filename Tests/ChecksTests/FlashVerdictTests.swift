import Foundation
import Testing
@testable import FlashDetection
import Checks
import Findings
import Reports

/// Verdicts on clips whose flashing is known by construction (320×240 unless said otherwise; 30 fps;
/// transitions fall on frames, so incident times are exact to the frame: checked to ±1 frame).
@Suite(.serialized) struct FlashVerdictTests {
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

    /// Around the three-flashes line: a toggle every 6 frames is 2.5 flashes/s, 5 is exactly 3 (allowed by
    /// WCAG, not by the Korean band), 4 is 3.75, 3 is 5.
    @Test func ratesAroundThreeFlashes() throws {
        let slow = try GeneratedClips.check(GeneratedClips.toggling("p6.mkv", a: 235, b: 16, period: 6))
        #expect(slow.verdict == .pass)
        let three = try GeneratedClips.toggling("p5.mkv", a: 235, b: 16, period: 5)
        #expect(try GeneratedClips.check(three).verdict == .pass)
        let korean = try GeneratedClips.check(three, profile: "kwcag")
        #expect(korean.verdict == .fail)
        #expect(korean.rules == ["flash.general", "flash.sampling-limit"])
        expectSpan(korean.finding("flash.general"), 5 * frame, 115 * frame)
        // A 30 fps file shows at most 15 flashes a second: the top of the 3–50 band cannot be judged.
        #expect(korean.finding("flash.sampling-limit")?.severity == .warning)

        let fast = try GeneratedClips.check(GeneratedClips.toggling("p4.mkv", a: 235, b: 16, period: 4))
        #expect(fast.verdict == .fail)
        #expect(fast.rules == ["flash.general"])
        // Transitions at frames 4, 8 … 116: the first failing second starts at the first of them.
        expectSpan(fast.finding("flash.general"), 4 * frame, 116 * frame)
        let fastest = try GeneratedClips.check(GeneratedClips.toggling("p3.mkv", a: 235, b: 16, period: 3))
        #expect(fastest.finding("flash.general")?.data["peakFlashesPerSecond"] == .number(5))
    }

    /// A flashing square on grey: 5×5 blocks is 19% of a 10° field (13×10 blocks at 320 px wide), 6×6 is 28%.
    @Test func areaAroundAQuarterOfTheField() throws {
        func square(_ name: String, x: Int, y: Int, size: Int) throws -> String {
            try GeneratedClips.make(
                name,
                source:
                    "nullsrc=s=320x240:r=30:d=3,format=yuv420p,geq=lum='if(between(X,\(x),\(x + size - 1))*between(Y,\(y),\(y + size - 1)),if(lt(mod(floor(N/3),2),1),235,16),128)':cb=128:cr=128"
            )
        }
        #expect(try GeneratedClips.check(square("sq40.mkv", x: 144, y: 104, size: 40)).verdict == .pass)
        let larger = try GeneratedClips.check(square("sq48.mkv", x: 144, y: 96, size: 48))
        #expect(larger.verdict == .fail)
        #expect(larger.rules == ["flash.general"])
        expectSpan(larger.finding("flash.general"), 3 * frame, 87 * frame)
        #expect(larger.finding("flash.general")?.data["peakFieldArea"] == .number(0.277))
        // The same square is far below 25% of the whole screen (BT.1702).
        #expect(try GeneratedClips.check(square("sq48.mkv", x: 144, y: 96, size: 48), profile: "bt1702").verdict == .pass)
    }

    /// 25% of the whole frame (BT.1702): 144×128 is 24%, 160×128 is 26.7%.
    @Test func areaAroundAQuarterOfTheFrame() throws {
        func rectangle(_ name: String, width: Int) throws -> String {
            try GeneratedClips.make(
                name,
                source:
                    "nullsrc=s=320x240:r=30:d=3,format=yuv420p,geq=lum='if(between(X,0,\(width - 1))*between(Y,0,127),if(lt(mod(floor(N/3),2),1),235,16),128)':cb=128:cr=128"
            )
        }
        #expect(try GeneratedClips.check(rectangle("r144.mkv", width: 144), profile: "bt1702").verdict == .pass)
        let larger = try GeneratedClips.check(rectangle("r160.mkv", width: 160), profile: "bt1702")
        #expect(larger.verdict == .fail)
        #expect(larger.rules == ["flash.general"])
        expectSpan(larger.finding("flash.general"), 3 * frame, 87 * frame)
    }

    /// At 1080p the analysis reads 32-px blocks, one row each: a square of 10×9 blocks is 30% of the
    /// 10° field (20×15 blocks), 10×6 blocks 20%.
    @Test func areaAtFullHD() throws {
        func square(_ name: String, height: Int) throws -> String {
            try GeneratedClips.make(
                name,
                source: "color=c=0x808080:s=1920x1080:r=30:d=2,format=yuv420p,"
                    + "drawbox=x=640:y=320:w=320:h=\(height):color=white:t=fill:enable='lt(mod(n,6),3)',"
                    + "drawbox=x=640:y=320:w=320:h=\(height):color=black:t=fill:enable='gte(mod(n,6),3)'")
        }
        let larger = try GeneratedClips.check(square("hd30.mkv", height: 288))
        #expect(larger.verdict == .fail)
        #expect(larger.finding("flash.general")?.data["peakFieldArea"] == .number(0.3))
        expectSpan(larger.finding("flash.general"), 3 * frame, 57 * frame)
        #expect(try GeneratedClips.check(square("hd20.mkv", height: 192)).verdict == .pass)
    }

    /// Luminance changes of 0.08 (not a transition) and 0.12 (a transition), from a darker state of 0.20.
    @Test func changesAroundATenth() throws {
        let base = GeneratedClips.code(forLuminance: 0.20)
        let small = try GeneratedClips.toggling("d08.mkv", a: base, b: GeneratedClips.code(forLuminance: 0.28), period: 3)
        #expect(try GeneratedClips.check(small).verdict == .pass)
        let large = try GeneratedClips.check(GeneratedClips.toggling("d12.mkv", a: base, b: GeneratedClips.code(forLuminance: 0.32), period: 3))
        #expect(large.verdict == .fail)
        #expect(large.rules == ["flash.general"])
        expectSpan(large.finding("flash.general"), 3 * frame, 117 * frame)
    }

    /// Between 0.75 and 1.0 the darker state is below 0.80 (flashing); between 0.85 and 1.0 it is not.
    @Test func darkerStateAroundEightTenths() throws {
        let dark = try GeneratedClips.check(GeneratedClips.toggling("dark75.mkv", a: 235, b: GeneratedClips.code(forLuminance: 0.75), period: 3))
        #expect(dark.verdict == .fail)
        #expect(dark.rules == ["flash.general"])
        expectSpan(dark.finding("flash.general"), 3 * frame, 117 * frame)
        let bright = try GeneratedClips.toggling("dark85.mkv", a: 235, b: GeneratedClips.code(forLuminance: 0.85), period: 3)
        #expect(try GeneratedClips.check(bright).verdict == .pass)
        // WCAG 2.3.2 (AAA) has no darker-state exception.
        #expect(try GeneratedClips.check(bright, profile: "wcag-aaa").verdict == .fail)
    }

    /// Saturated red against a grey of the same relative luminance (0.2126): red flashing, no general flashing.
    @Test func redAgainstEquallyLuminousGrey() throws {
        let clip = try GeneratedClips.make(
            "red.mkv",
            source:
                "nullsrc=s=320x240:r=30:d=3,format=gbrp,geq=r='if(lt(mod(floor(N/3),2),1),255,127)':g='if(lt(mod(floor(N/3),2),1),0,127)':b='if(lt(mod(floor(N/3),2),1),0,127)',format=yuv420p"
        )
        let result = try GeneratedClips.check(clip)
        #expect(result.verdict == .fail)
        #expect(result.rules == ["flash.red"])
        expectSpan(result.finding("flash.red"), 3 * frame, 87 * frame)
        // Without the red rule the same clip passes: its luminance does not flash.
        #expect(try GeneratedClips.check(clip) { $0.detectsRed = false }.verdict == .pass)
    }

    /// A checkerboard of 40-px squares inverting 10 times a second: the frame's mean never changes.
    @Test func invertingCheckerboard() throws {
        let clip = try GeneratedClips.make(
            "checker.mkv",
            source: "nullsrc=s=320x240:r=30:d=3,format=yuv420p,geq=lum='if(eq(mod(floor(X/40)+floor(Y/40)+floor(N/3),2),0),235,16)':cb=128:cr=128")
        let result = try GeneratedClips.check(clip)
        #expect(result.verdict == .fail)
        #expect(result.rules == ["flash.general"])
        expectSpan(result.finding("flash.general"), 3 * frame, 87 * frame)
    }

    /// Vertical 8-px stripes in a block-aligned rectangle on grey, alternating 5 times a second: `reversing`, each
    /// stripe against its neighbours (the pattern reverses its contrast), else all of them together (in phase).
    private func stripes(_ name: String, reversing: Bool, x: Int, y: Int, width: Int, height: Int) throws -> String {
        let stripe = reversing ? "floor((X-\(x))/8)+floor(N/3)" : "floor(N/3)"
        return try GeneratedClips.make(
            name,
            source:
                "nullsrc=s=320x240:r=30:d=3,format=yuv420p,geq=lum='if(between(X,\(x),\(x + width - 1))*between(Y,\(y),\(y + height - 1)),if(eq(mod(\(stripe),2),0),235,16),128)':cb=128:cr=128"
        )
    }

    /// WCAG judges "the combined area of flashes occurring concurrently": a 56×56 square of stripes (37.7% of the
    /// 10° field) reversing its contrast has 4 of its 7 stripes going light while 3 go dark, so neither way alone
    /// reaches 25% (21.5%), but together they cover the square — it fails as the same square flashing in phase does.
    @Test func reversingStripesCountTheirCombinedArea() throws {
        for reversing in [true, false] {
            let result = try GeneratedClips.check(stripes("stripes56-\(reversing).mkv", reversing: reversing, x: 128, y: 88, width: 56, height: 56))
            #expect(result.verdict == .fail, "reversing: \(reversing)")
            #expect(result.rules == ["flash.general"])
            #expect(result.finding("flash.general")?.data["peakFieldArea"] == .number(0.377))
            expectSpan(result.finding("flash.general"), 3 * frame, 87 * frame)
        }
        // Under BT.1702 a reversing block of 25 stripes over 41.7% of the screen (13 stripes one way: 21.7%) fails.
        let block = try GeneratedClips.check(stripes("stripes200.mkv", reversing: true, x: 56, y: 40, width: 200, height: 160), profile: "bt1702")
        #expect(block.verdict == .fail)
        #expect(block.finding("flash.general")?.data["peakFrameArea"] == .number(0.417))
        expectSpan(block.finding("flash.general"), 3 * frame, 87 * frame)
    }

    /// The left half flashing by ΔL 0.15 (0.30 ⇄ 0.45), the right half still.
    @Test func halfFrameFlash() throws {
        let low = GeneratedClips.code(forLuminance: 0.30), high = GeneratedClips.code(forLuminance: 0.45)
        let clip = try GeneratedClips.make(
            "half.mkv", source: "nullsrc=s=320x240:r=30:d=3,format=yuv420p,geq=lum='if(lt(X,160),if(lt(mod(floor(N/3),2),1),\(high),\(low)),128)':cb=128:cr=128"
        )
        let result = try GeneratedClips.check(clip)
        #expect(result.verdict == .fail)
        #expect(result.rules == ["flash.general"])
        #expect(result.finding("flash.general")?.data["peakFrameArea"] == .number(0.5))
        expectSpan(result.finding("flash.general"), 3 * frame, 87 * frame)
    }

    /// Black to white over 2 s and back: a slow ramp is one transition, not many.
    @Test func slowFades() throws {
        let clip = try GeneratedClips.make(
            "fade.mkv", source: "nullsrc=s=320x240:r=30:d=4,format=yuv420p,geq=lum='16+219*if(lt(N,60),N/60,(120-N)/60)':cb=128:cr=128")
        #expect(try GeneratedClips.check(clip).verdict == .pass)
    }

    /// A hard cut between two scenes every second: one transition a second.
    @Test func hardCutsOnceASecond() throws {
        let clip = try GeneratedClips.make(
            "cuts.mkv", source: "nullsrc=s=320x240:r=30:d=5,format=yuv420p,geq=lum='if(lt(mod(floor(N/30),2),1),40+X/4,220-Y/4)':cb=128:cr=128")
        #expect(try GeneratedClips.check(clip).verdict == .pass)
    }

    /// 60 fps: a toggle every 6 frames is 5 flashes a second; times in sixtieths.
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

    /// Portrait 180×320: the 10° field is a third of the width (60×45 px), so a 40×40 square is over half a
    /// field (fail) but 3% of the screen (BT.1702 pass).
    @Test func portraitVideo() throws {
        let clip = try GeneratedClips.make(
            "portrait.mkv",
            source:
                "nullsrc=s=180x320:r=30:d=3,format=yuv420p,geq=lum='if(between(X,64,103)*between(Y,136,175),if(lt(mod(floor(N/3),2),1),235,16),128)':cb=128:cr=128"
        )
        let result = try GeneratedClips.check(clip)
        #expect(result.verdict == .fail)
        #expect(result.rules == ["flash.general"])
        expectSpan(result.finding("flash.general"), 3 * frame, 87 * frame)
        #expect(try GeneratedClips.check(clip, profile: "bt1702").verdict == .pass)
    }

    /// 20 s of grey with one second of 5 Hz flashing at 12 s.
    @Test func longClipWithOneShortBurst() throws {
        let clip = try GeneratedClips.make(
            "burst.mkv", source: "nullsrc=s=160x120:r=30:d=20,format=yuv420p,geq=lum='if(between(N,360,389),if(lt(mod(N-360,6),3),235,16),128)':cb=128:cr=128")
        let result = try GeneratedClips.check(clip)
        #expect(result.verdict == .fail)
        #expect(result.rules == ["flash.general"])
        // Transitions at frames 360 (grey → white) … 390 (black → grey).
        expectSpan(result.finding("flash.general"), 360 * frame, 390 * frame)
    }

    /// 2.5 flashes a second (5 transitions) held for 6 s: not a failure, but the extended-risk warning.
    @Test func extendedRisk() throws {
        let result = try GeneratedClips.check(GeneratedClips.toggling("p6long.mkv", a: 235, b: 16, period: 6, seconds: 7))
        #expect(result.verdict == .warn)
        #expect(result.rules == ["flash.extended"])
    }

    /// A 10-bit limited-range HDR clip toggling every 3 frames between two signal levels (0–1), tagged PQ or HLG
    /// with BT.2020 primaries and matrix: lossless HEVC (x265) for PQ, FFV1 for HLG.
    private func hdrToggle(_ name: String, transfer: String, from a: Double, to b: Double) throws -> String {
        let codes = [a, b].map { Int((64 + 876 * $0).rounded()) }
        let tags = ["-color_trc", transfer, "-color_primaries", "bt2020", "-colorspace", "bt2020nc"]
        let codec =
            transfer == "smpte2084"
            ? ["-c:v", "libx265", "-x265-params", "log-level=error:lossless=1", "-pix_fmt", "yuv420p10le"] : ["-c:v", "ffv1"]
        return try GeneratedClips.make(
            name, source: "nullsrc=s=160x120:r=30:d=2,format=yuv420p10le,geq=lum='if(lt(mod(floor(N/3),2),1),\(codes[0]),\(codes[1]))':cb=512:cr=512",
            arguments: codec + tags)
    }

    /// The PQ signal (0–1) of `nits` cd/m²: ST 2084's inverse EOTF.
    private func pqSignal(nits: Double) -> Double {
        let y = pow(nits / 10_000, 0.1593017578125)
        return pow((0.8359375 + 18.8515625 * y) / (1 + 18.6875 * y), 78.84375)
    }

    /// HDR is measured through BT.2100 with 203 cd/m² as white. PQ 50 ⇄ 100 cd/m² (0.25 ⇄ 0.49) flashes — the SDR
    /// approximation (the signal read through the sRGB curve: 0.16 ⇄ 0.22) missed it — while 203 ⇄ 1000 cd/m², all
    /// at or above reference white, does not — the approximation (0.30 ⇄ 0.52) failed it. HLG 50% ⇄ 75% signal
    /// (51 ⇄ 203 cd/m² on the 1000 cd/m² reference display) flashes; 75% ⇄ 90% (203 ⇄ 522 cd/m²) does not.
    @Test func hdrLuminanceThroughBT2100() throws {
        let cases: [(name: String, transfer: String, from: Double, to: Double, fails: Bool)] = [
            ("pq-50-100.mp4", "smpte2084", pqSignal(nits: 50), pqSignal(nits: 100), true),
            ("pq-203-1000.mp4", "smpte2084", pqSignal(nits: 203), pqSignal(nits: 1000), false),
            ("hlg-50-75.mkv", "arib-std-b67", 0.50, 0.75, true),
            ("hlg-75-90.mkv", "arib-std-b67", 0.75, 0.90, false),
        ]
        for test in cases {
            let result = try GeneratedClips.check(hdrToggle(test.name, transfer: test.transfer, from: test.from, to: test.to))
            #expect(result.verdict == (test.fails ? .fail : .pass), "\(test.name)")
            #expect(result.rules == (test.fails ? ["flash.general"] : []), "\(test.name)")
            if test.fails { expectSpan(result.finding("flash.general"), 3 * frame, 57 * frame) }
            #expect(result.finding("flash.hdr")?.message.contains("BT.2100 \(test.transfer == "smpte2084" ? "PQ" : "HLG")") == true)
            #expect(result.metrics["hdr"] == .bool(true))
        }
    }

    /// Ordinary moving content: ffmpeg's test pattern and a Mandelbrot zoom.
    @Test func noFalsePositives() throws {
        let pattern = try GeneratedClips.make("testsrc2.mp4", source: "testsrc2=s=320x240:r=30:d=6", arguments: ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        #expect(try GeneratedClips.check(pattern).verdict == .pass)
        let mandelbrot = try GeneratedClips.make(
            "mandelbrot.mp4", source: "mandelbrot=s=320x240:r=30,trim=duration=6", arguments: ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        #expect(try GeneratedClips.check(mandelbrot).verdict == .pass)
    }
}
