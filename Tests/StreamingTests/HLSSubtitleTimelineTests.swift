import Captions
import Foundation
import MediaIO
import Testing
import TestSupport
@testable import Streaming

/// A subtitle rendition's WebVTT segments as one timeline: packages the ffmpeg CLI builds from Media/speech.mp4 and
/// Media/speech.vtt, and hand-made segments for the timestamp map's cases.
@Suite struct HLSSubtitleTimelineTests {
    /// An HLS package of the speech clip and its WebVTT file (4-s segments) built by the ffmpeg CLI in a new folder;
    /// `muxDelay` is the MPEG-TS muxer's delay (nil: FFmpeg's default 1.4 s), `timestampOffset` moves every timestamp
    /// (cue times too) that far along the MPEG-2 clock.
    static func package(muxDelay: Double?, timestampOffset: Double? = nil) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-hls-\(UUID().uuidString)")
        try HLSTestPackage.build(in: directory, subtitles: [("Media/speech.vtt", nil)], muxDelay: muxDelay, timestampOffset: timestampOffset)
        return directory
    }

    /// The joined cues of the package's subtitle rendition, the presentation starting at its first video segment's
    /// first picture.
    static func joinedCues(of directory: URL) throws -> (document: CaptionDocument, segments: Int, start: Double) {
        guard case .multivariant(let master) = try HLSPlaylist.parse(Array(try Data(contentsOf: directory.appendingPathComponent("master.m3u8"))))
        else { throw HLSError(line: 0, message: "no multivariant playlist") }
        let rendition = try #require(master.renditions.first { $0.type == .subtitles })
        let subtitleURL = directory.appendingPathComponent(try #require(rendition.uri))
        guard case .media(let subtitles) = try HLSPlaylist.parse(Array(try Data(contentsOf: subtitleURL))) else { throw HLSError(line: 0, message: "") }
        guard case .media(let video) = try HLSPlaylist.parse(Array(try Data(contentsOf: directory.appendingPathComponent(master.variants[0].uri))))
        else { throw HLSError(line: 0, message: "") }
        let first = directory.appendingPathComponent(try #require(video.segments.first).uri).path
        let start = try #require(try MediaProbe.probe(first).streams.first { $0.kind == .video }?.startTime)
        let segments = try subtitles.segments.map { segment in
            HLSSubtitleTimeline.Segment(
                uri: segment.uri, bytes: Array(try Data(contentsOf: subtitleURL.deletingLastPathComponent().appendingPathComponent(segment.uri))))
        }
        return (HLSSubtitleTimeline.join(segments, presentationStart: start), segments.count, start)
    }

    static func expectSourceCues(_ document: CaptionDocument) throws {
        let source = try CaptionFile.read("Media/speech.vtt")
        #expect(document.cues.map(\.text) == source.cues.map(\.text))
        for (joined, original) in zip(document.cues, source.cues) {
            #expect(
                abs(joined.start.milliseconds - original.start.milliseconds) <= 1 && abs(joined.end.milliseconds - original.end.milliseconds) <= 1,
                "\(joined.start)–\(joined.end) vs \(original.start)–\(original.end)")
        }
    }

    @Test func ffmpegPackageJoinsToTheSourceCues() throws {
        let directory = try Self.package(muxDelay: 0)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (document, segments, start) = try Self.joinedCues(of: directory)
        #expect(segments == 3)
        #expect(start > 0 && start < 0.2, "the first picture at \(start) s")
        // The same cues, their times within a millisecond: FFmpeg writes WebVTT times in whole milliseconds, the
        // picture starts on the 90 kHz clock (7,080 ticks = 78.67 ms).
        try Self.expectSourceCues(document)
        #expect(document.diagnostics.isEmpty, "a start 79 ms from MPEG-2 time 0 is within what sync allows")
    }

    /// FFmpeg's default MPEG-TS delay starts the media at 1.48 s while its WebVTT segments carry no timestamp map:
    /// read as RFC 8216 says (cue time 0 is MPEG-2 time 0), the captions come 1.4 s early.
    @Test func ffmpegDefaultMuxDelayPutsCaptionsEarly() throws {
        let directory = try Self.package(muxDelay: nil)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (document, _, start) = try Self.joinedCues(of: directory)
        #expect(start > 1.4 && start < 1.6, "the first picture at \(start) s")
        let source = try CaptionFile.read("Media/speech.vtt")
        #expect(document.cues.count == source.cues.count)
        for (joined, original) in zip(document.cues, source.cues) {
            #expect((1399...1401).contains(original.start.milliseconds - joined.start.milliseconds), "\(joined.start) vs \(original.start)")
        }
        // Said, with how far.
        #expect(document.diagnostics.map(\.rule) == ["hls.timestamp-map"])
        #expect(
            document.diagnostics.first?.message.range(
                of: #"and the video starts at 1\.4[0-9]{2} s on that clock — unless the cues were written on that clock, they show 1\.4[0-9]{2} s early$"#,
                options: .regularExpression) != nil,
            "\(document.diagnostics)")
    }

    /// The MPEG-2 clock wraps after 2³³ ticks (26 h 30 min 43.7 s). FFmpeg starts this package 3.7 s before the wrap:
    /// its first video segment's times come out of libavformat negative (-3.718 s), the next ones small and positive,
    /// while its WebVTT segments say 26:30:40.500 (cue times do not wrap). Each cue put on the wrap nearest its
    /// segment, the timeline is the source's; the missing maps are said, with the start on that clock.
    @Test func timestampsAcrossTheThirtyThreeBitWrap() throws {
        let directory = try Self.package(muxDelay: 0, timestampOffset: 95_440)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (document, segments, start) = try Self.joinedCues(of: directory)
        #expect(segments == 3)
        #expect(abs(MPEG2Clock.nearest(start, to: 95_440) - 95_440) < 0.001, "the first picture at \(start) s")
        try Self.expectSourceCues(document)
        #expect(
            document.diagnostics.map(\.description) == [
                "warning: its 3 WebVTT segments have no X-TIMESTAMP-MAP (RFC 8216 §3.5): their cue times are MPEG-2 times, and the video starts at 95440.000 s on that clock — unless the cues were written on that clock, they show 3.718 s late [hls.timestamp-map]"
            ])
    }

    @Test func theClockWrapsEveryTwoToTheThirtyThreeTicks() {
        #expect(MPEG2Clock.wrapSeconds == 8_589_934_592.0 / 90_000)
        #expect(MPEG2Clock.nearest(1.5, to: 95_443) == 1.5 + MPEG2Clock.wrapSeconds)
        #expect(MPEG2Clock.nearest(95_443, to: 1) == 95_443 - MPEG2Clock.wrapSeconds)
        #expect(MPEG2Clock.nearest(10, to: 11) == 10)
        // A map written after the wrap, its presentation started before it: 1 s after the wrap is 4 s in.
        let document = HLSSubtitleTimeline.join(
            [
                HLSSubtitleTimeline.Segment(
                    uri: "late.vtt",
                    bytes: Array("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:90000,LOCAL:00:00:00.000\n\n00:00:00.000 --> 00:00:01.000\nafter the wrap\n".utf8),
                    start: 4)
            ], presentationStart: MPEG2Clock.wrapSeconds - 3)
        #expect(document.cues.map { "\($0.start)–\($0.end)" } == ["00:00:04.000–00:00:05.000"])
        #expect(document.diagnostics.isEmpty)
    }

    @Test func timestampMapsRepeatsAndCuts() throws {
        func segment(_ name: String, _ text: String) -> HLSSubtitleTimeline.Segment {
            HLSSubtitleTimeline.Segment(uri: name, bytes: Array(text.utf8))
        }
        let document = HLSSubtitleTimeline.join(
            [
                segment(
                    "a.vtt",
                    "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n00:00:01.000 --> 00:00:02.000\nfirst\n\n00:00:03.500 --> 00:00:04.000\ncut\n\n00:00:03.800 --> 00:00:05.000\nrepeated\n"
                ),
                // LOCAL 4 s at MPEG-2 14 s: cue time 4.0 is 14 s, i.e. 4 s on the timeline.
                segment(
                    "b.vtt",
                    "WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:00:04.000,MPEGTS:1260000\n\n00:00:04.000 --> 00:00:04.500\ncut\n\n00:00:03.800 --> 00:00:05.000\nrepeated\n\n00:00:06.000 --> 00:00:07.000\nsecond segment\n"
                ),
                segment("c.vtt", "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:abc,LOCAL:00:00:00.000\n\n00:00:18.000 --> 00:00:19.000\nbad map: read as MPEG-2 time 0\n"),
                segment("d.vtt", "not webvtt"),
            ], presentationStart: 10)
        #expect(
            document.cues.map { "\($0.start)–\($0.end) \($0.text)" } == [
                "00:00:01.000–00:00:02.000 first", "00:00:03.500–00:00:04.500 cut", "00:00:03.800–00:00:05.000 repeated",
                "00:00:06.000–00:00:07.000 second segment", "00:00:08.000–00:00:09.000 bad map: read as MPEG-2 time 0",
            ])
        #expect(
            document.diagnostics.map(\.description) == [
                "error: c.vtt: MPEGTS `abc` is not a 33-bit count of 90 kHz ticks [hls.segment]",
                "error: d.vtt: not a WebVTT file: it must start with \"WEBVTT\" followed by a space, a tab or a line break [hls.segment]",
            ])
    }
}
