import Captions
import Foundation
import MediaIO
import TestSupport
import TestTraits
import Testing

@testable import Streaming

/// Streaming's HLSSubtitleTimeline on packages the ffmpeg CLI builds from Media/speech.mp4 and Media/speech.vtt: the
/// joined cues against the source WebVTT, with FFmpeg's mux delay, and across the MPEG-2 clock's wrap — the
/// presentation's start read from the first video segment by MediaIO.
@Suite(.tags(.media), .notInFastRun) struct FFmpegHLSSubtitleTimelineTests {
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
    static func joinedCues(of directory: URL) throws -> (joined: HLSSubtitleTimeline.Joined, segments: Int, start: Double) {
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
        let (joined, segments, start) = try Self.joinedCues(of: directory)
        let document = joined.document
        #expect(segments == 3)
        #expect(start > 0 && start < 0.2, "the first picture at \(start) s")
        // The same cues, their times within a millisecond: FFmpeg writes WebVTT times in whole milliseconds, the
        // picture starts on the 90 kHz clock (7,080 ticks = 78.67 ms).
        try Self.expectSourceCues(document)
        #expect(joined.findings.isEmpty, "a start 79 ms from MPEG-2 time 0 is within what sync allows")
    }

    /// FFmpeg's default MPEG-TS delay starts the media at 1.48 s while its WebVTT segments carry no timestamp map:
    /// read as RFC 8216 says (cue time 0 is MPEG-2 time 0), the captions come 1.4 s early.
    @Test func ffmpegDefaultMuxDelayPutsCaptionsEarly() throws {
        let directory = try Self.package(muxDelay: nil)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (joined, _, start) = try Self.joinedCues(of: directory)
        let document = joined.document
        #expect(start > 1.4 && start < 1.6, "the first picture at \(start) s")
        let source = try CaptionFile.read("Media/speech.vtt")
        #expect(document.cues.count == source.cues.count)
        for (joined, original) in zip(document.cues, source.cues) {
            #expect((1399...1401).contains(original.start.milliseconds - joined.start.milliseconds), "\(joined.start) vs \(original.start)")
        }
        // Said, with how far.
        #expect(joined.findings.map(\.rule) == ["hls.timestamp-map"])
        #expect(
            joined.findings.first?.message.range(
                of: #"and the video starts at 1\.4[0-9]{2} s on that clock — unless the cues were written on that clock, they show 1\.4[0-9]{2} s early$"#,
                options: .regularExpression) != nil,
            "\(joined.findings)")
    }

    /// The MPEG-2 clock wraps after 2³³ ticks (26 h 30 min 43.7 s). FFmpeg starts this package 3.7 s before the wrap:
    /// its first video segment's times come out of libavformat negative (-3.718 s), the next ones small and positive,
    /// while its WebVTT segments say 26:30:40.500 (cue times do not wrap). Each cue put on the wrap nearest its
    /// segment, the timeline is the source's; the missing maps are said, with the start on that clock.
    @Test func timestampsAcrossTheThirtyThreeBitWrap() throws {
        let directory = try Self.package(muxDelay: 0, timestampOffset: 95_440)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (joined, segments, start) = try Self.joinedCues(of: directory)
        let document = joined.document
        #expect(segments == 3)
        #expect(abs(MPEG2Clock.nearest(start, to: 95_440) - 95_440) < 0.001, "the first picture at \(start) s")
        try Self.expectSourceCues(document)
        #expect(
            joined.findings.map { "\($0.severity.rawValue): \($0.message) [\($0.rule)]" } == [
                "warning: its 3 WebVTT segments have no X-TIMESTAMP-MAP (RFC 8216 §3.5): their cue times are MPEG-2 times, and the video starts at 95440.000 s on that clock — unless the cues were written on that clock, they show 3.718 s late [hls.timestamp-map]"
            ])
    }
}
