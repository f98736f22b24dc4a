import Checks
import Findings
import FlashDetection
import Foundation
import TestTraits
import Testing

/// The flash check on MP4 decoded in segments from key frames, several at once (the default on more than one core),
/// against one decoder from the start: every frame's measurement, every finding and its times the same — including a
/// pattern's motion judged across the joins, where one segment's first look is compared with the last of the segment
/// before, and a fine pattern's reversal at a join, measured by the segment before.
@Suite(.tags(.media), .notInFastRun) struct SegmentedFlashTests {
    /// A key frame every half second, exactly (no scene cuts), B-frames.
    private static let h264 = [
        "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p",
        "-x264-params", "keyint=15:min-keyint=15:scenecut=0:bframes=2:threads=1:log-level=error",
    ]

    private func run(_ path: String, profile: String, segmented: Bool) throws -> (CheckResult, [FrameMeasurement]) {
        var frames: [FrameMeasurement] = []
        var check = FlashCheck(configuration: .profile(profile)!, decodeThreads: segmented ? 2 : 1)
        check.segmentSeconds = 0.5
        let result = try check.run(path: path, frames: { frames.append($0) })
        return (result, frames)
    }

    @Test(arguments: [
        // Stripes, still within each half second, reversed exactly on each key frame: whether the pattern moves is
        // only seen by comparing a segment's first look with the one before it.
        (
            "reversing-on-key-frames",
            "nullsrc=s=320x240:r=30:d=6,format=yuv420p,geq=lum='if(mod(floor((X+8*floor(N/15))/8),2),235,16)':cb=128:cr=128",
            ["pattern.regular error"]
        ),
        // A flashing square and stripes that come and go across the joins.
        (
            "flashes-and-patterns",
            "nullsrc=s=320x240:r=30:d=6,format=yuv420p,geq=lum='if(between(X,0,159),if(lt(mod(floor(N/4),2),1),235,16),if(lt(mod(floor(N/20),2),1),if(mod(floor(X/6),2),235,16),128))':cb=128:cr=128",
            ["flash.general error", "pattern.regular error"]
        ),
        // 4-px stripes reversing every third frame (5 flashes a second), also on every key frame: each block's mean
        // stays, so only the reversal measured against the picture before sees them flash — at a join, by the
        // segment before, whose last picture it is.
        (
            "fine-stripes-reversing-across-joins",
            "nullsrc=s=320x240:r=30:d=6,format=yuv420p,geq=lum='if(mod(floor(X/4)+floor(N/3),2),235,16)':cb=128:cr=128",
            ["flash.general error", "pattern.regular error"]
        ),
    ])
    func sameResultAsOneDecoder(name: String, source: String, expected: [String]) throws {
        let clip = try GeneratedClips.make("segmented-\(name).mp4", source: source, arguments: Self.h264)
        let (sequential, sequentialFrames) = try run(clip, profile: "bt1702", segmented: false)
        let (segmented, segmentedFrames) = try run(clip, profile: "bt1702", segmented: true)
        #expect(Set(sequential.findings.map { "\($0.rule) \($0.severity)" }) == Set(expected), "\(name)")
        #expect(segmented.verdict == sequential.verdict, "\(name)")
        #expect(segmented.findings.map(FastDecodeTests.describe) == sequential.findings.map(FastDecodeTests.describe), "\(name)")
        #expect(segmentedFrames.count == 180 && segmentedFrames == sequentialFrames, "\(name)")
    }
}
