import Captions
import FileAccess
import Foundation
import Testing

@testable import Streaming

/// HLS playlists read as RFC 8216 writes them: what the ffmpeg CLI's HLS muxer writes, and the accessibility
/// attributes of Apple's authoring examples (CLOSED-CAPTIONS with INSTREAM-ID, CHARACTERISTICS, FORCED).
@Suite struct HLSPlaylistTests {
    static func parse(_ text: String) throws -> HLSPlaylist { try HLSPlaylist.parse(Array(text.utf8)) }

    /// The multivariant playlist `ffmpeg -f hls -var_stream_map "v:0,a:0,s:0,sgroup:subs"` writes.
    @Test func ffmpegMultivariantPlaylist() throws {
        guard
            case .multivariant(let playlist) = try Self.parse(
                """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="subtitle_0",DEFAULT=YES,URI="sub_0.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=232734,RESOLUTION=320x180,SUBTITLES="subs"
                stream_0.m3u8

                """)
        else { Issue.record("not read as a multivariant playlist"); return }
        #expect(playlist.version == 3 && playlist.diagnostics.isEmpty)
        let subtitles = try #require(playlist.renditions.first)
        #expect(subtitles.type == .subtitles && subtitles.groupID == "subs" && subtitles.name == "subtitle_0")
        #expect(subtitles.uri == "sub_0.m3u8" && subtitles.isDefault && !subtitles.autoselect && subtitles.language == nil)
        let variant = try #require(playlist.variants.first)
        #expect(variant.uri == "stream_0.m3u8" && variant.bandwidth == 232_734 && variant.subtitlesGroup == "subs")
        #expect(variant.resolution?.width == 320 && variant.resolution?.height == 180)
    }

    @Test func accessibilityAttributes() throws {
        guard
            case .multivariant(let playlist) = try Self.parse(
                """
                #EXTM3U\r
                #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",LANGUAGE="en",INSTREAM-ID="CC1",DEFAULT=YES,AUTOSELECT=YES\r
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English (SDH)",LANGUAGE="en",AUTOSELECT=YES,CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound",URI="sdh/en.m3u8"\r
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Français (forcé)",LANGUAGE="fr",FORCED=YES,URI="forced/fr.m3u8"\r
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English AD",LANGUAGE="en",CHARACTERISTICS="public.accessibility.describes-video",URI="ad/en.m3u8"\r
                #EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aud",SUBTITLES="subs",CLOSED-CAPTIONS="cc"\r
                video/720p.m3u8\r
                #EXT-X-STREAM-INF:BANDWIDTH=800000,CLOSED-CAPTIONS=NONE\r
                video/360p.m3u8\r
                """)
        else { Issue.record("not read as a multivariant playlist"); return }
        #expect(playlist.diagnostics.isEmpty)
        #expect(playlist.renditions.map(\.type) == [.closedCaptions, .subtitles, .subtitles, .audio])
        #expect(playlist.renditions[0].instreamID == "CC1" && playlist.renditions[0].uri == nil && playlist.renditions[0].autoselect)
        #expect(
            playlist.renditions[1].characteristics == [
                "public.accessibility.transcribes-spoken-dialog", "public.accessibility.describes-music-and-sound",
            ])
        #expect(playlist.renditions[2].forced && playlist.renditions[2].name == "Français (forcé)")
        #expect(playlist.renditions(type: .subtitles, group: "subs").map(\.language) == ["en", "fr"])
        #expect(playlist.variants[0].codecs == ["avc1.64001f", "mp4a.40.2"] && playlist.variants[0].closedCaptionsGroup == "cc")
        #expect(playlist.variants[1].closedCaptionsNone && playlist.variants[1].closedCaptionsGroup == nil)
    }

    @Test func mediaPlaylist() throws {
        guard
            case .media(let playlist) = try Self.parse(
                """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-TARGETDURATION:10
                #EXT-X-MEDIA-SEQUENCE:0
                #EXT-X-PLAYLIST-TYPE:VOD
                #EXTINF:10.000000,
                stream_00.vtt
                #EXT-X-DISCONTINUITY
                #EXTINF:2.5,after a break
                stream_01.vtt
                #EXT-X-ENDLIST
                """)
        else { Issue.record("not read as a media playlist"); return }
        #expect(playlist.targetDuration == 10 && playlist.playlistType == "VOD" && playlist.ended)
        #expect(playlist.segments.map(\.uri) == ["stream_00.vtt", "stream_01.vtt"])
        #expect(playlist.segments.map(\.start) == [0, 10] && playlist.duration == 12.5)
        #expect(playlist.segments[1].discontinuity && playlist.segments[1].title == "after a break" && playlist.segments[1].line == 10)
    }

    /// Fragmented MP4 (`#EXT-X-MAP` in force for the segments after it) and byte ranges, as FFmpeg writes them.
    @Test func initialisationSectionsAndByteRanges() throws {
        guard
            case .media(let playlist) = try Self.parse(
                """
                #EXTM3U
                #EXT-X-VERSION:7
                #EXT-X-TARGETDURATION:5
                #EXTINF:4.8,
                plain.ts
                #EXT-X-MAP:URI="init.mp4"
                #EXTINF:4.800000,
                #EXT-X-BYTERANGE:445372@0
                stream_0.m4s
                #EXTINF:3.600000,
                stream_1.m4s
                #EXT-X-MAP:URI="all.mp4",BYTERANGE="720@0"
                #EXT-X-MAP:BYTERANGE="720@0"
                #EXT-X-ENDLIST
                """)
        else { Issue.record("not read as a media playlist"); return }
        #expect(playlist.segments.map(\.initSection) == [nil, "init.mp4", "init.mp4"])
        #expect(playlist.segments.map(\.isByteRange) == [false, true, false])
        #expect(
            playlist.diagnostics.map(\.description) == [
                "line 12: #EXT-X-MAP with a BYTERANGE: the whole file all.mp4 is read as the initialisation section", "line 13: #EXT-X-MAP without a URI",
            ])
    }

    @Test func malformedPlaylistsAreNotedNotFatal() throws {
        #expect(throws: HLSError.self) { try Self.parse("WEBVTT\n\n00:00.000 --> 00:01.000\nnot a playlist\n") }
        guard
            case .media(let playlist) = try Self.parse(
                """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXTINF:abc,
                bad.ts
                orphan.ts
                #EXTINF:6.2,
                long.ts
                """)
        else { Issue.record("not read as a media playlist"); return }
        #expect(playlist.segments.map(\.uri) == ["long.ts"])
        #expect(
            playlist.diagnostics.map(\.description) == [
                "line 3: #EXTINF duration `abc` is not a number; the segment is left out",
                "line 4: a URI line (`bad.ts`) without #EXTINF before it is ignored",
                "line 5: a URI line (`orphan.ts`) without #EXTINF before it is ignored",
                "line 7: a segment of 6.2 s is longer than #EXT-X-TARGETDURATION (4 s)",
            ])
        guard
            case .multivariant(let broken) = try Self.parse(
                """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=CAPTIONS,GROUP-ID="x",NAME="unclosed
                #EXT-X-STREAM-INF:BANDWIDTH=1,BANDWIDTH=2
                """)
        else { Issue.record("not read as a multivariant playlist"); return }
        #expect(
            broken.diagnostics.map(\.description) == [
                "line 2: attribute NAME's quoted string is not closed",
                "line 2: #EXT-X-MEDIA TYPE `CAPTIONS` is not AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS",
                "line 3: attribute BANDWIDTH appears twice; the first is used",
                "line 3: #EXT-X-STREAM-INF without a URI line",
            ])
    }
}

/// Hostile playlists stay linear: a line of a hundred thousand attributes, a playlist of thousands of missing segments.
@Suite struct HostilePlaylistSizeTests {
    @Test func aLongAttributeListIsReadOnceEach() {
        let text = (0..<100_000).map { "X-A\($0)=\($0)" }.joined(separator: ",") + ",X-A7=8"
        var notes: [String] = []
        let list = HLSAttributeList.parse(text, line: 2) { _, message in notes.append(message) }
        #expect(list.values.count == 100_000 && list.string("X-A99999") == "99999" && list.string("X-A7") == "7")
        #expect(notes == ["attribute X-A7 appears twice; the first is used"])
    }

    @Test func manyMissingSegmentsAreEachSaidOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-missing-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let segments = (0..<5000).map { "#EXTINF:1,\nmissing\($0 % 4000).ts\n" }.joined()
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nmedia.m3u8\n".write(to: folder.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        try "#EXTM3U\n#EXT-X-TARGETDURATION:1\n\(segments)#EXT-X-ENDLIST\n".write(
            to: folder.appendingPathComponent("media.m3u8"), atomically: true, encoding: .utf8)
        let package = try HLSPackage.load(folder.appendingPathComponent("master.m3u8").path, probe: { _ in nil })
        let files = package.mediaFiles(ofPlaylist: "media.m3u8")
        #expect(files.runs.isEmpty && files.unreadable.count == 4000 && files.unreadable.last?.uri == "missing3999.ts")
    }
}

/// A package of thousands of runs (one per `#EXT-X-DISCONTINUITY`) is probed run by run only while the deadline bound
/// around its loading lasts.
@Suite struct PackageDeadlineTests {
    @Test func probingStopsWhenTheBoundDeadlineIsPast() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-runs-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0x47]).write(to: folder.appendingPathComponent("segment.ts"))
        let segments = (0..<10_000).map { "\($0 == 0 ? "" : "#EXT-X-DISCONTINUITY\n")#EXTINF:1,\nsegment.ts\n" }.joined()
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nmedia.m3u8\n".write(to: folder.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        try "#EXTM3U\n#EXT-X-TARGETDURATION:1\n\(segments)#EXT-X-ENDLIST\n".write(
            to: folder.appendingPathComponent("media.m3u8"), atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("master.m3u8").path
        let probes = Counter()
        let deadline = ReadDeadline(allowing: 0.2, for: "the package's media")
        let package = try deadline.bind { () throws(CaptionError) in
            try HLSPackage.load(path) { _ in
                probes.add()
                usleep(2_000)
                return HLSPackage.SegmentFacts(firstTimestamp: 0, hasAudio: false)
            }
        }
        #expect(package.videoFiles.runs.count == 10_000)
        #expect(probes.value > 0 && probes.value < 1_000, "\(probes.value) runs probed in 0.2 s of 2 ms each")
        // Unbound, every run is probed.
        let all = Counter()
        _ = try HLSPackage.load(path) { _ in
            all.add()
            return nil
        }
        #expect(all.value == 10_000)
    }
}

private final class Counter: @unchecked Sendable {
    private(set) var value = 0
    func add() { value += 1 }
}
