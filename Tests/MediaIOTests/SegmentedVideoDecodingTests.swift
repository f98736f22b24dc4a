import Foundation
import TestSupport
import TestTraits
import Testing

@testable import MediaIO

/// Decoding in segments from key frames, several at once: the same frames, in the same order, with the same pixels
/// as one decoder from the start — with B-frames, open GOPs (leading pictures shown before their key frame), HEVC and
/// MPEG-4 part 2 — and each segment's work sees the next segment's first frames after its own.
@Suite(.tags(.media), .notInFastRun) struct SegmentedVideoDecodingTests {
    /// A frame's time and a checksum of its luma plane.
    struct Picture: Equatable, Sendable, CustomStringConvertible {
        var time: Double
        var checksum: UInt64
        var pastEnd = false
        var description: String { "\(time)\(pastEnd ? " (past end)" : ""): \(checksum)" }

        init(_ frame: VideoFrame, pastEnd: Bool = false) {
            time = frame.time
            self.pastEnd = pastEnd
            checksum = frame.withPlanes { planes in
                var hash: UInt64 = 14_695_981_039_346_656_037
                for y in 0..<planes.luma.height {
                    for sample in planes.luma.row8(y) { hash = (hash ^ UInt64(sample)) &* 1_099_511_628_211 }
                }
                return hash
            }
        }
    }

    /// Hashes each frame; past a segment's end, records `lookAhead` frames.
    final class Checksums: VideoSegmentWork {
        let lookAhead: Int
        private var seen = 0
        init(lookAhead: Int) { self.lookAhead = lookAhead }
        func take(_ frame: VideoFrame) -> Picture? { Picture(frame) }
        func takeAfterEnd(_ frame: VideoFrame) -> (output: Picture?, wantsMore: Bool) {
            seen += 1
            return (lookAhead > 0 ? Picture(frame, pastEnd: true) : nil, seen < lookAhead)
        }
    }

    /// 8 s of a moving test picture at 320×240, 30 fps, encoded as `arguments` say (made once per machine).
    private static func clip(_ name: String, _ arguments: [String]) throws -> String {
        try TestMediaCache.ffmpeg(name, ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=8"] + arguments + [TestMediaCache.output])
    }

    private static func sequential(_ path: String) throws -> [Picture] {
        let reader = try VideoFrameReader(path: path, options: .init(threads: 1))
        var pictures: [Picture] = []
        while let frame = try reader.nextFrame() { pictures.append(Picture(frame)) }
        return pictures
    }

    private static func segmented(_ path: String, threads: Int = 2, lookAhead: Int = 0) throws -> (segments: Int, pictures: [Picture]) {
        let decoding = try SegmentedVideoDecoding(path: path, options: .init(threads: threads), minimumSegmentSeconds: 1) {
            Checksums(lookAhead: lookAhead)
        }
        var pictures: [Picture] = []
        while let picture = try decoding.next() { pictures.append(picture) }
        #expect(decoding.decodeErrorCount == 0)
        return (decoding.segmentCount, pictures)
    }

    static let x264 = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"]

    @Test(arguments: [
        ("closed-gop-bframes.mp4", x264 + ["-x264-params", "keyint=30:min-keyint=30:bframes=3:threads=1:log-level=error"], 7),
        ("open-gop.mp4", x264 + ["-x264-params", "keyint=45:min-keyint=45:bframes=3:open-gop=1:threads=1:log-level=error"], 5),
        ("scene-cuts.mov", x264 + ["-x264-params", "keyint=90:bframes=2:threads=1:log-level=error"], 2),
        ("hevc.mp4", ["-c:v", "libx265", "-pix_fmt", "yuv420p", "-x265-params", "keyint=40:min-keyint=40:bframes=4:log-level=error"], 5),
        ("mpeg4.mp4", ["-c:v", "mpeg4", "-g", "30", "-bf", "2", "-q:v", "4"], 7),
    ])
    func sameFramesAsOneDecoderFromTheStart(name: String, arguments: [String], minimumSegments: Int) throws {
        let path = try Self.clip(name, arguments)
        let expected = try Self.sequential(path)
        try #require(expected.count == 240)
        for threads in [2, 3] {
            let (segments, pictures) = try Self.segmented(path, threads: threads)
            #expect(segments >= minimumSegments, "\(name)")
            #expect(pictures == expected, "\(name), \(threads) threads: \(pictures.count) frames")
        }
    }

    /// Each segment's work sees the next segment's first frames once its own are done: the caller gets them in
    /// between (marked), each the same picture as the frame the next segment then starts with.
    @Test func workSeesTheNextSegmentsFirstFrames() throws {
        let path = try Self.clip("closed-gop-bframes.mp4", Self.x264 + ["-x264-params", "keyint=30:min-keyint=30:bframes=3:threads=1:log-level=error"])
        let (segments, pictures) = try Self.segmented(path, lookAhead: 2)
        let own = pictures.filter { !$0.pastEnd }
        #expect(own == (try Self.sequential(path)))
        let marked = pictures.indices.filter { pictures[$0].pastEnd }
        #expect(marked.count == 2 * (segments - 1))
        for k in stride(from: 0, to: marked.count, by: 2) {
            let (first, second) = (marked[k], marked[k + 1])
            #expect(second == first + 1)
            // The next two frames are the next segment's first two.
            var mirrored = [pictures[first], pictures[second]]
            for i in mirrored.indices { mirrored[i].pastEnd = false }
            #expect(Array(pictures[(second + 1)...(second + 2)]) == mirrored)
        }
    }

    /// Files without a complete sample index (Matroska here), one core, or too short: one segment, the same frames.
    @Test func otherFilesDecodeAsOneSegment() throws {
        let mkv = try Self.clip("closed-gop.mkv", Self.x264 + ["-x264-params", "keyint=30:threads=1:log-level=error"])
        let mp4 = try Self.clip("closed-gop-bframes.mp4", Self.x264 + ["-x264-params", "keyint=30:min-keyint=30:bframes=3:threads=1:log-level=error"])
        for (path, threads) in [(mkv, 2), (mp4, 1)] {
            let (segments, pictures) = try Self.segmented(path, threads: threads)
            #expect(segments == 1)
            #expect(pictures == (try Self.sequential(path)))
        }
        let short = try SegmentedVideoDecoding(path: mp4, options: .init(threads: 2), minimumSegmentSeconds: 60) { Checksums(lookAhead: 0) }
        #expect(short.segmentCount == 1)
    }
}
