import Captions
import Findings
import Foundation
import Testing

@testable import Streaming

/// A subtitle rendition's WebVTT segments as one timeline, on hand-made segments for the timestamp map's cases and the
/// MPEG-2 clock's wrap. (Packages the ffmpeg CLI builds are read in ChecksTests' FFmpegHLSSubtitleTimelineTests.)
@Suite struct HLSSubtitleTimelineTests {
    @Test func theClockWrapsEveryTwoToTheThirtyThreeTicks() {
        let wrap: Double = 8_589_934_592.0 / 90_000.0
        #expect(MPEG2Clock.wrapSeconds == wrap)
        #expect(MPEG2Clock.nearest(1.5, to: 95_443) == 1.5 + MPEG2Clock.wrapSeconds)
        #expect(MPEG2Clock.nearest(95_443, to: 1) == 95_443 - MPEG2Clock.wrapSeconds)
        #expect(MPEG2Clock.nearest(10, to: 11) == 10)
        // A map written after the wrap, its presentation started before it: 1 s after the wrap is 4 s in.
        let joined = HLSSubtitleTimeline.join(
            [
                HLSSubtitleTimeline.Segment(
                    uri: "late.vtt",
                    bytes: Array("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:90000,LOCAL:00:00:00.000\n\n00:00:00.000 --> 00:00:01.000\nafter the wrap\n".utf8),
                    start: 4)
            ], presentationStart: MPEG2Clock.wrapSeconds - 3)
        #expect(joined.document.cues.map { "\($0.start)–\($0.end)" } == ["00:00:04.000–00:00:05.000"])
        #expect(joined.findings.isEmpty)
    }

    @Test func timestampMapsRepeatsAndCuts() throws {
        func segment(_ name: String, _ text: String) -> HLSSubtitleTimeline.Segment {
            HLSSubtitleTimeline.Segment(uri: name, bytes: Array(text.utf8))
        }
        let joined = HLSSubtitleTimeline.join(
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
            joined.document.cues.map { "\($0.start)–\($0.end) \($0.text)" } == [
                "00:00:01.000–00:00:02.000 first", "00:00:03.500–00:00:04.500 cut", "00:00:03.800–00:00:05.000 repeated",
                "00:00:06.000–00:00:07.000 second segment", "00:00:08.000–00:00:09.000 bad map: read as MPEG-2 time 0",
            ])
        #expect(
            joined.findings.map(\.summary) == [
                "error: c.vtt: MPEGTS `abc` is not a 33-bit count of 90 kHz ticks [hls.segment]",
                "error: d.vtt: not a WebVTT file: it must start with \"WEBVTT\" followed by a space, a tab or a line break [hls.segment]",
            ])
    }
}

extension Finding {
    /// "severity: message [rule]".
    var summary: String { "\(severity.rawValue): \(message) [\(rule)]" }
}

/// Hostile playlists and maps: what no clock can hold is not a time, and the playlist says so.
@Suite struct HostileHLSValuesTests {
    @Test func aLocalTimeBeyondABillionHoursIsNoTime() {
        #expect(HLSSubtitleTimeline.webVTTTime("9999999999999:00:00.000") == nil)
        #expect(HLSSubtitleTimeline.webVTTTime("999999999:00:00.000")?.milliseconds == 3_599_999_996_400_000)
        let joined = HLSSubtitleTimeline.join(
            [
                HLSSubtitleTimeline.Segment(
                    uri: "b.vtt", bytes: Array("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:9999999999999:00:00.000\n\n00:00:01.000 --> 00:00:02.000\nb\n".utf8)
                )
            ],
            presentationStart: 0)
        #expect(joined.document.cues.count == 1 && joined.findings.map(\.rule) == ["hls.segment"], "\(joined.findings)")
    }

    @Test func aSegmentLongerThanADayIsLeftOut() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.vtt\n#EXTINF:1e308,\nb.vtt\n#EXTINF:4,\nc.vtt\n#EXT-X-ENDLIST\n"
        guard case .media(let playlist) = try HLSPlaylist.parse(Array(text.utf8)) else {
            Issue.record("not a media playlist")
            return
        }
        #expect(playlist.segments.map(\.uri) == ["a.vtt", "c.vtt"] && playlist.segments.map(\.start) == [0, 4])
        #expect(playlist.diagnostics.map(\.description).contains { $0.contains("longer than a segment can be") }, "\(playlist.diagnostics)")
    }
}
