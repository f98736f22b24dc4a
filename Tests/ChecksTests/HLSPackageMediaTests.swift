import Captions
import Findings
import Foundation
import MediaIO
import Streaming
import TestSupport
import TestTraits
import Testing

@testable import Checks

/// A package's media as one presentation: speech decoded across its audio segments for sync, flashing measured across
/// its video segments — in packages the ffmpeg CLI cuts, one of them across the MPEG-2 clock's 33-bit wrap.
@Suite(.tags(.media), .notInFastRun) struct HLSPackageMediaTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("medialint-hlsmedia-\(UUID().uuidString)")
    }

    /// libavformat reads a file whose first timestamp is within 60 s of the MPEG-2 clock's wrap as negative times,
    /// any other as they are: the speech package started 3.7 s before the wrap (95,440 s) reads on, while started
    /// 65 s before it (95,378.7 s) its third segment comes out 26.5 hours before its second. Put back in order, the
    /// captions are in sync either way.
    @Test(arguments: [95_440, 95_378.7]) func speechAcrossTheClockWrapIsInSync(timestampOffset: Double) throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try HLSTestPackage.build(in: folder, subtitles: [("Media/speech.vtt", "en")], timestampOffset: timestampOffset)
        let package = try HLSPackage.load(folder.appendingPathComponent("master.m3u8").path)
        let speech = try #require(try package.speech())
        // Speech before the wrap (the first caption, 0.5–2.8 s) and after it (the third, 6.5–9.3 s).
        #expect(speech.timeline.speech(from: 0.5, to: 2.8) > 1 && speech.timeline.speech(from: 6.5, to: 9.3) > 1, "\(speech.timeline.onsets)")
        let outcomes = SyncCheck().check(package: package)
        #expect(outcomes.count == 1)
        #expect(outcomes.first?.result.verdict == .pass, "\(outcomes.first?.result.findings.map(\.message) ?? [])")
        #expect(abs(try #require(outcomes.first?.report).offsetSeconds) < 0.1)
        // The segments' cue times were written on the clock: the missing maps are said, the captions are not moved.
        #expect(HLSPackageCheck().run(package).findings.map(\.rule) == ["hls.timestamp-map"])
    }

    /// A package of fragmented MP4 segments (`#EXT-X-MAP` naming the initialisation section), as Apple's authoring
    /// specification asks for HEVC and CMAF packagers make for everything: read as the MPEG-TS package is.
    @Test func fragmentedMP4SegmentsAreReadAfterTheirInitialisationSection() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try HLSTestPackage.build(in: folder, subtitles: [("Media/speech.vtt", "en")], fragmentedMP4: true)
        let playlist = try String(contentsOf: folder.appendingPathComponent("stream_0.m3u8"), encoding: .utf8)
        #expect(playlist.contains("#EXT-X-MAP:URI=\"init.mp4\""), "\(playlist)")
        let package = try HLSPackage.load(folder.appendingPathComponent("master.m3u8").path)
        let video = package.videoFiles
        #expect(video.initSection.map { ($0 as NSString).lastPathComponent } == "init.mp4" && video.segments.count == 3)
        let initSection = try #require(video.initSection)
        #expect(package.memberFiles().contains(initSection), "the initialisation section belongs to the package")
        let start = try #require(package.presentationStart)
        #expect(abs(start) < 0.1)
        #expect(HLSPackageCheck().run(package).findings.isEmpty)
        let source = try CaptionFile.read("Media/speech.vtt").cues
        let joined = try package.subtitles().cues
        #expect(joined.map(\.text) == source.map(\.text))
        #expect(zip(joined, source).allSatisfy { abs($0.start.milliseconds - $1.start.milliseconds) <= 1 }, "\(joined.map(\.start))")
        let sync = try #require(SyncCheck().check(package: package).first)
        let offset = try #require(sync.report).offsetSeconds
        #expect(sync.result.verdict == .pass && abs(offset) < 0.1, "\(sync.result.findings.map(\.message))")
        let flash = try FlashCheck(decodeThreads: 1).run(package: package)
        #expect(flash.verdict == .pass)
        #expect(Self.framesAnalysed(flash) == 300, "every picture of the 12 s")
    }

    /// A package whose renditions are one file each, their segments byte ranges (`-hls_flags single_file`): each file
    /// read once, whole. (FFmpeg 5.1 gives the WebVTT file the video's byte ranges, past its end: the ranges are not
    /// what is read.)
    @Test func byteRangesOfOneFileAreReadAsThatFile() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try HLSTestPackage.build(in: folder, subtitles: [("Media/speech.vtt", "en")], singleFile: true)
        let package = try HLSPackage.load(folder.appendingPathComponent("master.m3u8").path)
        let video = package.videoFiles
        #expect(video.segments.map { ($0 as NSString).lastPathComponent } == ["stream_0.ts"])
        #expect(try package.subtitles().cues.map(\.text) == (try CaptionFile.read("Media/speech.vtt").cues.map(\.text)))
        #expect(HLSPackageCheck().run(package).findings.isEmpty)
        let sync = try #require(SyncCheck().check(package: package).first)
        #expect(sync.result.verdict == .pass, "\(sync.result.findings.map(\.message))")
        let flash = try FlashCheck(decodeThreads: 1).run(package: package)
        #expect(Self.framesAnalysed(flash) == 300, "every picture once")
    }

    /// Two programmes spliced with `#EXT-X-DISCONTINUITY` (each packaged on its own by the ffmpeg CLI, so the second's
    /// timestamps start again): each discontinuity sequence is placed where the playlist plays it — its cues, its
    /// speech and its flashing 12 s (6 s) later, not on top of the first's.
    @Test func aDiscontinuityStartsTheClockAgain() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for part in ["a", "b"] {
            try HLSTestPackage.build(in: folder.appendingPathComponent(part), subtitles: [("Media/speech.vtt", "en")])
            try HLSTestPackage.build(in: folder.appendingPathComponent("flash-" + part), media: "Media/flashing.mp4", subtitles: [], segmentSeconds: 2)
        }
        /// The media playlists `name` of `parts` one after the other, a discontinuity between them.
        func splice(_ name: String, _ parts: [String]) throws -> String {
            var text = "#EXTM3U\n#EXT-X-TARGETDURATION:5\n"
            for (k, part) in parts.enumerated() {
                if k > 0 { text += "#EXT-X-DISCONTINUITY\n" }
                let playlist = try String(contentsOf: folder.appendingPathComponent(part).appendingPathComponent(name), encoding: .utf8)
                for line in playlist.split(separator: "\n") where line.hasPrefix("#EXTINF") || !line.hasPrefix("#") {
                    text += line.hasPrefix("#") ? "\(line)\n" : "\(part)/\(line)\n"
                }
            }
            return text + "#EXT-X-ENDLIST\n"
        }
        try Data(try splice("stream_0.m3u8", ["a", "b"]).utf8).write(to: folder.appendingPathComponent("video.m3u8"))
        try Data(try splice("sub_0.m3u8", ["a", "b"]).utf8).write(to: folder.appendingPathComponent("subs.m3u8"))
        try Data(try splice("stream_0.m3u8", ["flash-a", "flash-b"]).utf8).write(to: folder.appendingPathComponent("flashing.m3u8"))
        try Data(
            """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",URI="subs.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=100000,SUBTITLES="subs"
            video.m3u8

            """.utf8
        ).write(to: folder.appendingPathComponent("master.m3u8"))
        try Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000\nflashing.m3u8\n".utf8).write(to: folder.appendingPathComponent("flashing-master.m3u8"))

        let package = try HLSPackage.load(folder.appendingPathComponent("master.m3u8").path)
        #expect(package.videoFiles.runs.map(\.playlistStart) == [0, 12])
        let cues = try package.subtitles().cues
        #expect(cues.count == 8)
        for (first, second) in zip(cues.prefix(4), cues.dropFirst(4)) {
            #expect(first.text == second.text && abs(second.start.milliseconds - first.start.milliseconds - 12_000) <= 2, "\(first.start) / \(second.start)")
        }
        let sync = try #require(SyncCheck().check(package: package).first)
        let offset = try #require(sync.report).offsetSeconds
        #expect(sync.result.verdict == .pass && abs(offset) < 0.1, "\(sync.result.findings.map(\.message))")
        let flashing = try HLSPackage.load(folder.appendingPathComponent("flashing-master.m3u8").path)
        let flash = try FlashCheck(decodeThreads: 1).run(package: flashing)
        #expect(flash.verdict == .fail && Self.framesAnalysed(flash) == 360)
        // The same pictures as one file (the clip twice, its timestamps running on): the same incidents, on its clock.
        let list = folder.appendingPathComponent("twice.txt"), twice = folder.appendingPathComponent("twice.mp4").path
        let clip = FileManager.default.currentDirectoryPath + "/Media/flashing.mp4"
        try Data("file '\(clip)'\nfile '\(clip)'\n".utf8).write(to: list)
        try ExternalTool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", list.path, "-c", "copy", twice])
        let whole = try FlashCheck(decodeThreads: 1).run(path: twice)
        let wholeStart = try MediaProbe.probe(twice).streams.first { $0.kind == .video }?.startTime ?? 0
        #expect(flash.findings.map(\.rule) == ["flash.general", "flash.general"] && whole.findings.map(\.rule) == flash.findings.map(\.rule))
        for (spliced, one) in zip(flash.findings, whole.findings) {
            #expect(
                abs((spliced.start ?? -1) - ((one.start ?? 0) - wholeStart)) < 0.034 && abs((spliced.end ?? -1) - ((one.end ?? 0) - wholeStart)) < 0.034,
                "\(spliced.start ?? -1)–\(spliced.end ?? -1) vs \(one.start ?? -1)–\(one.end ?? -1) − \(wholeStart)")
        }
        #expect(abs((flash.findings.last?.start ?? 0) - 8) < 0.2, "the second programme's flashing 6 s after the first's")
    }

    /// Media/flashing.mp4 (white–black flashing at 2.0–4.0 s) cut into 1-s segments: from MPEG-2 time 0; with the
    /// clock wrapping at 3.0 s; and with libavformat's reading turning negative at 3.0 s (60 s before the wrap).
    /// One analysis across the cuts finds the file's own incident, on the presentation's timeline.
    @Test(arguments: [nil, 95_440.72, 95_381]) func flashingAcrossSegmentCuts(timestampOffset: Double?) throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try HLSTestPackage.build(in: folder, media: "Media/flashing.mp4", subtitles: [], segmentSeconds: 1, timestampOffset: timestampOffset)
        let package = try HLSPackage.load(folder.appendingPathComponent("master.m3u8").path)
        let video = package.videoFiles
        #expect(video.segments.count == 6)
        let check = FlashCheck(decodeThreads: 1)
        let result = try check.run(package: package)
        let file = try check.run(path: "Media/flashing.mp4")
        #expect(result.verdict == .fail)
        #expect(result.findings.map(\.rule) == file.findings.map(\.rule))
        #expect(result.findings.map(\.rule) == ["flash.general"])
        for (cut, whole) in zip(result.findings, file.findings) {
            #expect(abs((cut.start ?? -1) - (whole.start ?? 0)) < 0.034 && abs((cut.end ?? -1) - (whole.end ?? 0)) < 0.034, "\(cut) vs \(whole)")
        }
        #expect(Self.framesAnalysed(result) == 180, "every picture of the 6 s, none twice")
    }

    static func framesAnalysed(_ result: CheckResult) -> Int64? {
        guard case .object(let metrics) = result.metrics, case .integer(let frames)? = metrics.first(where: { $0.key == "framesAnalysed" })?.value
        else { return nil }
        return frames
    }
}
