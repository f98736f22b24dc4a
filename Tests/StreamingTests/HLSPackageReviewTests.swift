import Testing

@testable import Streaming

/// The package rules on hand-edited playlists, each case giving exactly its issue; and where a URI may lead.
@Suite struct HLSPackageReviewTests {
    static func multivariant(_ text: String) throws -> HLSMultivariantPlaylist {
        guard case .multivariant(let playlist) = try HLSPlaylist.parse(Array(text.utf8)) else { throw HLSError(line: 0, message: "not multivariant") }
        return playlist
    }

    static func media(_ duration: Double, target: Int = 4, ended: Bool = true) throws -> HLSMediaPlaylist {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:\(target)\n"
        var left = duration
        var k = 0
        while left > 0 {
            text += "#EXTINF:\(min(Double(target), left)),\nseg\(k).ts\n"
            left -= Double(target)
            k += 1
        }
        guard case .media(let playlist) = try HLSPlaylist.parse(Array((text + (ended ? "#EXT-X-ENDLIST\n" : "")).utf8)) else {
            throw HLSError(line: 0, message: "")
        }
        return playlist
    }

    static let good = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English (SDH)",LANGUAGE="en",CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound",URI="subs/en.m3u8"
        #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",LANGUAGE="en",INSTREAM-ID="CC1"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English AD",LANGUAGE="en",CHARACTERISTICS="public.accessibility.describes-video",URI="ad/en.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=2000000,AUDIO="aud",SUBTITLES="subs",CLOSED-CAPTIONS="cc"
        video/720p.m3u8
        """

    static func review(_ text: String, subtitles: Double = 12, live: Bool = false, unreadable: [String: String] = [:]) throws -> [String] {
        HLSPackageReview.review(
            try multivariant(text), mediaPlaylists: ["video/720p.m3u8": try media(12, ended: !live), "subs/en.m3u8": try media(subtitles, ended: !live)],
            unreadable: unreadable
        ).map(\.summary)
    }

    @Test func aWellMadePackageHasNoIssue() throws {
        #expect(try Self.review(Self.good).isEmpty)
    }

    @Test func eachRuleOnItsOwnCase() throws {
        // No subtitles and no 608 declared.
        #expect(
            try Self.review("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nvideo/720p.m3u8\n") == [
                "error: variant video/720p.m3u8 has no subtitle rendition and no declared CEA-608 captions (SUBTITLES, CLOSED-CAPTIONS) [hls.captions-missing]"
            ])
        // SDH subtitles with one characteristic missing.
        #expect(
            try Self.review(Self.good.replacingOccurrences(of: ",public.accessibility.describes-music-and-sound", with: "")) == [
                "warning: subtitles \"English (SDH)\" are for the deaf and hard of hearing but CHARACTERISTICS lacks public.accessibility.describes-music-and-sound: players cannot select them from the accessibility settings [hls.sdh-characteristics]"
            ])
        // Named as SDH, no characteristics at all.
        #expect(
            try Self.review(
                Self.good.replacingOccurrences(
                    of: #"CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound","#, with: "")
            ).count == 1)
        // Audio description without describes-video.
        #expect(
            try Self.review(Self.good.replacingOccurrences(of: #"CHARACTERISTICS="public.accessibility.describes-video","#, with: "")) == [
                "warning: audio \"English AD\" describes the video but CHARACTERISTICS lacks public.accessibility.describes-video [hls.audio-description-characteristics]"
            ])
        // A group named by the variant that has no rendition.
        #expect(
            try Self.review(Self.good.replacingOccurrences(of: #"CLOSED-CAPTIONS="cc""#, with: #"CLOSED-CAPTIONS="cc2""#)) == [
                "error: variant video/720p.m3u8 names the CLOSED-CAPTIONS group \"cc2\", which has no rendition [hls.rendition-missing]"
            ])
        // A rendition whose playlist is not there.
        #expect(
            try Self.review(Self.good, unreadable: ["subs/en.m3u8": "no such file"]) == [
                "error: rendition \"English (SDH)\": subs/en.m3u8: no such file [hls.rendition-missing]"
            ])
        // Subtitles 8 s shorter than the video (segments of 4 s).
        #expect(
            try Self.review(Self.good, subtitles: 4) == [
                "warning: subtitles \"English (SDH)\" last 4 s, the video 12 s: more than a segment (4 s) apart [hls.subtitle-duration]"
            ])
        // The same in a live presentation (no EXT-X-ENDLIST): windows that slide or grow are not compared.
        #expect(try Self.review(Self.good, subtitles: 4, live: true).isEmpty)
    }

    @Test func referencesStayInsideThePackage() {
        #expect(HLSReference.resolve("sub_0.m3u8", inPlaylistAt: "master.m3u8") == .inside("sub_0.m3u8"))
        #expect(HLSReference.resolve("../audio/./a%20b.ts", inPlaylistAt: "video/720p.m3u8") == .inside("audio/a b.ts"))
        #expect(HLSReference.resolve("../../etc/passwd", inPlaylistAt: "video/720p.m3u8") == .refused("../../etc/passwd leaves the package's folder"))
        #expect(HLSReference.resolve("%2E%2E/secret", inPlaylistAt: "master.m3u8") == .refused("%2E%2E/secret leaves the package's folder"))
        #expect(
            HLSReference.resolve("http://example.com/x.m3u8", inPlaylistAt: "master.m3u8")
                == .refused("http://example.com/x.m3u8 is a network or other address (http), not a file of the package"))
        #expect(
            HLSReference.resolve("file:///etc/passwd", inPlaylistAt: "master.m3u8")
                == .refused("file:///etc/passwd is a network or other address (file), not a file of the package"))
        #expect(HLSReference.resolve("/etc/passwd", inPlaylistAt: "master.m3u8") == .refused("/etc/passwd is an absolute path, outside the package"))
        #expect(
            HLSReference.resolve("seg.ts?token=1", inPlaylistAt: "master.m3u8")
                == .refused("seg.ts?token=1 has a query or fragment: not a plain file of the package"))
    }
}
