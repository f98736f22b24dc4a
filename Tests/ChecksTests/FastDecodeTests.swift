import Checks
import Findings
import FlashDetection
import Foundation
import TestTraits
import Testing

/// The fast decode (H.264 of 1080p and larger without its in-loop deblocking filter, the default) against the
/// exact one: the same verdicts, findings and incident times, and each frame's mean luminance close.
@Suite(.tags(.media), .notInFastRun) struct FastDecodeTests {
    /// Lossy H.264 (the deblocking filter at work), one encoder thread so the stream is the same on every machine.
    private static let h264 = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p", "-x264-params", "threads=1:log-level=error"]

    private func run(_ path: String, exact: Bool, profile: String = "wcag") throws -> (CheckResult, [FrameMeasurement]) {
        var frames: [FrameMeasurement] = []
        let check = FlashCheck(configuration: .profile(profile)!, exactDecode: exact)
        let result = try check.run(path: path, frames: { frames.append($0) })
        return (result, frames)
    }

    /// Everything a finding says, times to the microsecond.
    static func describe(_ finding: Finding) -> String {
        let times = [finding.start, finding.end].map { $0.map { String(format: "%.6f", $0) } ?? "-" }
        return "\(finding.rule) \(finding.severity) \(times[0])–\(times[1]) \(finding.message) \(finding.data)"
    }

    /// Clips that fail, warn and pass in every way the verdict tests know, drawn at 320×240, scaled to 1080p
    /// (nearest neighbour: the edges stay sharp) and encoded lossily.
    @Test(arguments: [
        ("toggle-p4", "nullsrc=s=320x240:r=30:d=3,format=yuv420p,geq=lum='if(lt(mod(floor(N/4),2),1),235,16)':cb=128:cr=128"),
        ("toggle-p6-long", "nullsrc=s=320x240:r=30:d=7,format=yuv420p,geq=lum='if(lt(mod(floor(N/6),2),1),235,16)':cb=128:cr=128"),
        (
            "checker",
            "nullsrc=s=320x240:r=30:d=3,format=yuv420p,geq=lum='if(eq(mod(floor(X/40)+floor(Y/40)+floor(N/3),2),0),235,16)':cb=128:cr=128"
        ),
        (
            "square48",
            "nullsrc=s=320x240:r=30:d=3,format=yuv420p,geq=lum='if(between(X,144,191)*between(Y,96,143),if(lt(mod(floor(N/3),2),1),235,16),128)':cb=128:cr=128"
        ),
        (
            "square40",
            "nullsrc=s=320x240:r=30:d=3,format=yuv420p,geq=lum='if(between(X,144,183)*between(Y,104,143),if(lt(mod(floor(N/3),2),1),235,16),128)':cb=128:cr=128"
        ),
        (
            "stripes",
            "nullsrc=s=320x240:r=30:d=3,format=yuv420p,geq=lum='if(between(X,128,183)*between(Y,88,143),if(eq(mod(floor((X-128)/8)+floor(N/3),2),0),235,16),128)':cb=128:cr=128"
        ),
        (
            "red",
            "nullsrc=s=320x240:r=30:d=3,format=gbrp,geq=r='if(lt(mod(floor(N/3),2),1),255,127)':g='if(lt(mod(floor(N/3),2),1),0,127)':b='if(lt(mod(floor(N/3),2),1),0,127)',format=yuv420p"
        ),
        ("testsrc2", "testsrc2=s=320x240:r=30:d=4"),
        ("mandelbrot", "mandelbrot=s=320x240:r=30,trim=duration=4"),
    ])
    func sameFindingsAsTheExactDecode(name: String, source: String) throws {
        let clip = try GeneratedClips.make("fast-\(name).mp4", source: source + ",scale=1920:1080:flags=neighbor", arguments: Self.h264)
        // BT.1702 judges by the share of the screen where WCAG judges by the worst 10° field: checked too where the
        // flashing covers part of the picture (where deblocked edges could move a share across its limit).
        for profile in ["wcag"] + (["square48", "square40", "stripes"].contains(name) ? ["bt1702"] : []) {
            let (fast, _) = try run(clip, exact: false, profile: profile)
            let (exact, _) = try run(clip, exact: true, profile: profile)
            #expect(fast.verdict == exact.verdict, "\(name) \(profile)")
            #expect(fast.findings.map(Self.describe) == exact.findings.map(Self.describe), "\(name) \(profile)")
        }
    }

    /// Each frame's mean luminance against the exact decode's, within 0.5%: a moving test scene with grain (0.36%
    /// measured), a Mandelbrot zoom (0.34%) and Conway's Life from seed 1 (0.48%) — one-pixel cells, sharp edges
    /// everywhere, a dark background: the worst case measured (other seeds gave 0.40–0.54%).
    @Test(arguments: [
        ("testsrc2-grain", "testsrc2=s=1920x1080:r=30:d=4,noise=alls=8:allf=t", 0.005),
        ("mandelbrot", "mandelbrot=s=1920x1080:r=30,trim=duration=4", 0.005),
        ("life", "life=s=1920x1080:r=30:seed=1:mold=10:ratio=0.5:death_color=#202020:life_color=#ffffff,trim=duration=4", 0.005),
    ])
    func meanLuminanceStaysClose(name: String, source: String, limit: Double) throws {
        let clip = try GeneratedClips.make("fast-\(name).mp4", source: source, arguments: Self.h264)
        let (_, fast) = try run(clip, exact: false)
        let (_, exact) = try run(clip, exact: true)
        try #require(fast.count == exact.count && fast.count == 120)
        var worst = 0.0
        for (a, b) in zip(fast, exact) {
            #expect(a.time == b.time)
            worst = max(worst, abs(a.meanLuminance - b.meanLuminance) / b.meanLuminance)
        }
        #expect(worst <= limit, "\(name): \(worst)")
        #expect(worst > 0, "the fast decode left the filter out")
    }

    /// Below 1080p, and for other codecs (HEVC drifts too far without its filters), the decode is always exact.
    @Test func smallerPicturesAndHEVCAreDecodedExactly() throws {
        let small = try GeneratedClips.make("fast-small.mp4", source: "mandelbrot=s=1280x720:r=30,trim=duration=2", arguments: Self.h264)
        let hevc = try GeneratedClips.make(
            "fast-hevc.mp4", source: "mandelbrot=s=1920x1080:r=30,trim=duration=2",
            arguments: [
                "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error:pools=1:frame-threads=1", "-crf", "23", "-pix_fmt", "yuv420p",
            ])
        for clip in [small, hevc] {
            let (_, fast) = try run(clip, exact: false)
            let (_, exact) = try run(clip, exact: true)
            #expect(fast.count == 60 && fast == exact)
        }
    }
}
