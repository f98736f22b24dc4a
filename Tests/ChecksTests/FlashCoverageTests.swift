import Findings
import Foundation
import MediaIO
import TestSupport
import TestTraits
import Testing

@testable import Checks

/// A seizure-risk check never says PASS on video it did not see: files cut to their header, with a broken sample
/// description, or cut in half are errors (with the reason probe gives), a video stream that merely ends before
/// the audio passes, and frames that could not be decoded make the result `unverified`.
@Suite struct FlashCoverageTests {
    private static let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Media")

    /// This process's damaged files.
    private static let scratch = Result { try TemporaryFolder.make("flash-coverage") }

    /// A damaged copy of a bundled sample.
    private func damaged(_ sample: String, _ name: String, _ damage: (inout Data) -> Void) throws -> String {
        var data = try Data(contentsOf: Self.media.appendingPathComponent(sample))
        damage(&data)
        let path = try Self.scratch.get().appendingPathComponent(name).path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    private func flashError(_ path: String) -> String? {
        do {
            _ = try GeneratedClips.check(path)
            return nil
        } catch {
            return (error as? MediaError)?.reason ?? "\(error)"
        }
    }

    @Test func aMatroskaHeaderAloneIsAnError() throws {
        let path = try damaged("embedded-subtitles.mkv", "header-only.mkv") { $0 = $0.prefix(4096) }
        #expect(flashError(path) == "no video frame could be decoded of the 12.021 s the file states: nothing to judge flashing on")
    }

    @Test func anMP4WithAnEmptySampleDescriptionIsAnError() throws {
        let path = try damaged("flashing.mp4", "stsd-size-0.mp4") { data in
            let at = data.range(of: Data("stsd".utf8))!.lowerBound
            data.replaceSubrange((at - 4)..<at, with: [0, 0, 0, 0])
        }
        #expect(flashError(path) == "no video frame could be decoded of the 6.000 s the file states: nothing to judge flashing on")
    }

    @Test func aMatroskaCutInHalfIsTruncatedAsProbeSays() throws {
        let path = try damaged("embedded-subtitles.mkv", "cut-in-half.mkv") { $0 = $0.prefix($0.count / 2) }
        let reason = "the file is truncated: its data ends at 6.141 s but the container says it lasts 12.021 s"
        #expect(flashError(path) == reason)
        #expect(throws: MediaError(.corrupt, path: path, reason: reason)) { try MediaProbe.probe(path) }
    }

    /// 4 KB of zeros in the middle of a Matroska file: the demuxer skips to the next cluster it finds, without a
    /// decoding error, and 3.84 s of video are never decoded. Not a pass: unverified, the stretch said.
    @Test func aZeroedStretchInMatroskaIsSaidNotPassed() throws {
        let path = try damaged("embedded-subtitles.mkv", "zeroed-4k.mkv") { data in
            let middle = data.count / 2
            data.replaceSubrange(middle..<(middle + 4096), with: Data(count: 4096))
        }
        let result = try GeneratedClips.check(path)
        #expect(result.verdict == .unverified)
        let finding = try #require(result.finding("flash.unverified"))
        #expect(finding.message == "3.840 s of video could not be decoded (6.040–9.880 s): the file is damaged there, and flashing in it was not checked")
        #expect(finding.start == 6.04 && finding.end.map { abs($0 - 9.88) < 1e-9 } == true)
        // The undamaged file passes, every frame seen.
        #expect(try GeneratedClips.check(Self.media.appendingPathComponent("embedded-subtitles.mkv").path).verdict == .pass)
    }

    /// 2 s of video and 6 s of audio in Matroska (no per-stream duration): the video was seen whole.
    @Test(.tags(.media), .notInFastRun) func videoShorterThanTheAudioPasses() throws {
        let path = try GeneratedClips.make(
            "short-video.mkv", source: "testsrc=size=64x36:rate=25:duration=2",
            arguments: ["-f", "lavfi", "-i", "sine=duration=6", "-c:v", "mpeg4", "-c:a", "libvorbis"])
        let result = try GeneratedClips.check(path)
        #expect(result.verdict == .pass)
        #expect(result.metrics["framesAnalysed"]?.intValue == 50)

        // Had only half a second of those 2 s been decoded, the rest would be unverified, and said so.
        var partial = result
        try FlashCheck.checkCoverage(&partial, frames: 12, decoded: 0.5, stated: 6.003, stream: 0, path: path)
        #expect(partial.verdict == .unverified)
        #expect(
            partial.findings.map(\.message) == [
                "only 0.500 s of video (12 frames) could be decoded of the 6.003 s the file states: the rest was not checked for flashing"
            ])
        #expect(partial.findings.map(\.rule) == ["flash.unverified"])
    }

    /// MPEG-TS states no duration: cut to its first frame, the result is unverified, not a pass.
    @Test(.tags(.media), .notInFastRun) func aTransportStreamCutToOneFrameIsUnverified() throws {
        let whole = try TestMediaCache.ffmpeg(
            "speech.ts", ["-i", Self.media.appendingPathComponent("speech.mp4").path, "-c", "copy", "-f", "mpegts", TestMediaCache.output])
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        let path = try Self.scratch.get().appendingPathComponent("one-frame.ts").path
        try data.prefix(3820).write(to: URL(fileURLWithPath: path))
        let result = try GeneratedClips.check(path)
        #expect(result.verdict == .unverified)
        #expect(result.metrics["framesAnalysed"]?.intValue == 1)
        #expect(result.findings.map(\.message) == ["only one video frame could be decoded: flashing needs a sequence of frames to be judged"])
    }
}
