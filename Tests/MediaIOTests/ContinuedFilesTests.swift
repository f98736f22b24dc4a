import Foundation
import TestSupport
import TestTraits
import Testing

@testable import MediaIO

/// Files that continue one another — an HLS rendition's MPEG-TS segments, or a fragmented MP4's initialisation
/// section and its fragments — read as one stream, as a player appends them: one demuxer and one decoder across the
/// cuts. Segments cut from Media/speech.mp4 (12 s, 25 fps) by the ffmpeg CLI.
@Suite(.tags(.media), .notInFastRun) struct ContinuedFilesTests {
    /// The speech clip cut into 4-s segments of `type` (`mpegts` or `fmp4`), copied into a new folder: the files in
    /// playing order (for fMP4 the initialisation section first).
    static func segments(_ type: String) throws -> (folder: URL, files: [String]) {
        let suffix = type == "fmp4" ? "m4s" : "ts"
        let media = TestMediaCache.packageRoot.appendingPathComponent("Media/speech.mp4").path
        let made = try TestMediaCache.folder("segments-\(type)", recipe: "hls \(type) of \(try TestMediaCache.fingerprint(ofFile: media))", tools: ["ffmpeg"]) {
            made in
            try ExternalTool.run(
                "ffmpeg",
                [
                    "-nostdin", "-v", "error", "-y", "-i", media, "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-c:a", "aac",
                    "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod", "-hls_segment_type", type, "-hls_fmp4_init_filename", "init.mp4",
                    "-hls_segment_filename", made.appendingPathComponent("s_%02d.\(suffix)").path, made.appendingPathComponent("v.m3u8").path,
                ])
        }
        let folder = try TemporaryFolder.make("continued")
        try TestMediaCache.copyContents(of: made, into: folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".\(suffix)") }.sorted()
        let files = (type == "fmp4" ? ["init.mp4"] : []) + names
        return (folder, files.map { folder.appendingPathComponent($0).path })
    }

    @Test(arguments: ["mpegts", "fmp4"]) func segmentsReadAsOneStream(type: String) throws {
        let (folder, files) = try Self.segments(type)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(files.count == (type == "fmp4" ? 4 : 3))
        let first = files[0], rest = Array(files.dropFirst())
        // The whole presentation's length, measured from the packets of every file.
        let info = try MediaProbe.probe(first, followedBy: rest, scan: .always)
        let video = try #require(info.streams.first { $0.kind == .video })
        #expect(video.frameCount == 300, "every picture of the 12 s")
        #expect(abs((video.duration ?? 0) - 12) < 0.05, "\(video.duration ?? 0)")
        // Every picture decoded once, in order, timestamps rising by a frame.
        let reader = try VideoFrameReader(path: first, followedBy: rest, options: .init(threads: 1))
        var times: [Double] = []
        while let frame = try reader.nextFrame() { times.append(frame.time) }
        #expect(times.count == 300)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.04) < 0.001 }, "a picture lost or repeated at a cut")
        // The audio as one decoding: 12 s of samples, no gap or overlap at the cuts.
        let audio = try AudioSampleReader(path: first, followedBy: rest, options: .init(sampleRate: 16_000))
        var samples = 0
        var next: Double?
        var jumps = 0
        while let chunk = try audio.nextChunk() {
            if let next, abs(chunk.time - next) > 0.001 { jumps += 1 }
            next = chunk.time + Double(chunk.samples.count) / 16_000
            samples += chunk.samples.count
        }
        #expect(jumps == 0)
        #expect(abs(Double(samples) / 16_000 - 12) < 0.1, "\(Double(samples) / 16_000) s")
    }

    @Test func aMissingOrUnreadableContinuationIsSaid() throws {
        let (folder, files) = try Self.segments("mpegts")
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("s_09.ts").path
        #expect(throws: MediaError.self) { try MediaProbe.probe(files[0], followedBy: [files[1], missing]) }
        do {
            _ = try AudioSampleReader(path: files[0], followedBy: [folder.path])
            Issue.record("a folder read as a segment")
        } catch {
            #expect(error.reason == "is a directory, not a media file" && error.path == folder.path, "\(error)")
        }
    }
}
