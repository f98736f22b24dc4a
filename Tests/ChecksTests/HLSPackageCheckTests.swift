import Basics
import Captions
import Findings
import Foundation
import Glibc
import Streaming
import TestSupport
import TestTraits
import Testing

@testable import Checks

/// An HLS package written by hand, then edited one way at a time: each edit gives exactly its finding.
@Suite struct HLSPackageCheckTests {
    static let master = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English (SDH)",LANGUAGE="en",CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound",URI="subs/en.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="audio/en.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=500000,AUDIO="aud",SUBTITLES="subs"
        video.m3u8

        """

    /// The package in a new folder, with `edit` applied to the multivariant playlist and `segment` as the second
    /// subtitle segment.
    static func package(
        _ edit: (String) -> String = { $0 }, segment: String? = nil, subtitlePlaylist: (String) -> String = { $0 }
    ) throws -> (folder: URL, master: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-hlscheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("subs"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("audio"), withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nseg0.ts\n#EXTINF:6,\nseg1.ts\n#EXT-X-ENDLIST\n"
        try write("video.m3u8", media)
        try write("audio/en.m3u8", media)
        // Segments to be there (not decoded by these rules).
        for name in ["seg0.ts", "seg1.ts", "audio/seg0.ts", "audio/seg1.ts"] { try write(name, "G") }
        try write("subs/en.m3u8", subtitlePlaylist("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n0.vtt\n#EXTINF:6,\n1.vtt\n#EXT-X-ENDLIST\n"))
        try write("subs/0.vtt", "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\n\n00:00:01.000 --> 00:00:03.000\nHello.\n")
        try write("subs/1.vtt", segment ?? "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:540000,LOCAL:00:00:00.000\n\n00:00:01.000 --> 00:00:02.000\n[door slams]\n")
        try write("master.m3u8", edit(master))
        return (folder, folder.appendingPathComponent("master.m3u8").path)
    }

    static func findings(
        _ edit: (String) -> String = { $0 }, segment: String? = nil, subtitlePlaylist: (String) -> String = { $0 }
    ) throws -> [String] {
        let (folder, master) = try package(edit, segment: segment, subtitlePlaylist: subtitlePlaylist)
        defer { try? FileManager.default.removeItem(at: folder) }
        return HLSPackageCheck().run(try HLSPackage.load(master)).findings.map { "\($0.rule): \($0.message)" }
    }

    @Test func theHandWrittenPackagePassesAndJoinsItsSubtitles() throws {
        #expect(try Self.findings().isEmpty)
        let (folder, master) = try Self.package()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The inventory: each rendition with its flags and characteristics, each variant's groups.
        let metrics = HLSPackageCheck().run(try HLSPackage.load(master)).metrics
        guard case .object(let inventory) = metrics, case .array(let renditions)? = inventory.first(where: { $0.key == "renditions" })?.value,
            case .object(let sdh) = renditions.first, case .array(let variants)? = inventory.first(where: { $0.key == "variants" })?.value
        else {
            Issue.record("no inventory: \(metrics)")
            return
        }
        #expect(renditions.count == 2 && variants.count == 1)
        #expect(sdh.first { $0.key == "name" }?.value == .string("English (SDH)"))
        #expect(sdh.first { $0.key == "characteristics" }?.value.arrayCount == 2)
        // 540000 ticks = 6 s: the second segment's cue at 7 s.
        #expect(
            try HLSPackage.load(master).subtitles().cues.map { "\($0.start)–\($0.end) \($0.text)" } == [
                "00:00:01.000–00:00:03.000 Hello.", "00:00:07.000–00:00:08.000 [door slams]",
            ])
    }

    @Test func eachEditGivesItsFinding() throws {
        #expect(
            try Self.findings { $0.replacingOccurrences(of: ",public.accessibility.describes-music-and-sound", with: "") } == [
                "hls.sdh-characteristics: subtitles \"English (SDH)\" are for the deaf and hard of hearing but CHARACTERISTICS lacks public.accessibility.describes-music-and-sound: players cannot select them from the accessibility settings"
            ])
        #expect(
            try Self.findings { $0.replacingOccurrences(of: #"NAME="English (SDH)",LANGUAGE="en""#, with: #"NAME="English (SDH)",LANGUAGE="english""#) } == [
                "hls.language: rendition \"English (SDH)\": LANGUAGE \"english\" is not a BCP 47 tag"
            ])
        #expect(
            try Self.findings { $0.replacingOccurrences(of: "subs/en.m3u8", with: "subs/fr.m3u8") } == [
                "hls.rendition-missing: rendition \"English (SDH)\": subs/fr.m3u8: no such file"
            ])
        #expect(
            try Self.findings { $0.replacingOccurrences(of: "subs/en.m3u8", with: "../../etc/passwd") } == [
                "hls.reference: ../../etc/passwd leaves the package's folder"
            ])
        #expect(
            try Self.findings { $0.replacingOccurrences(of: "subs/en.m3u8", with: "http://example.com/en.m3u8") } == [
                "hls.reference: http://example.com/en.m3u8 is a network or other address (http), not a file of the package"
            ])
        #expect(
            try Self.findings { $0.replacingOccurrences(of: #"SUBTITLES="subs""#, with: "") } == [
                "hls.captions-missing: variant video.m3u8 has no subtitle rendition and no declared CEA-608 captions (SUBTITLES, CLOSED-CAPTIONS)"
            ])
        #expect(
            try Self.findings(segment: "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:-5,LOCAL:00:00:00.000\n\n00:00:01.000 --> 00:00:02.000\nx\n") == [
                "hls.segment: subtitles \"English (SDH)\": 1.vtt: MPEGTS `-5` is not a 33-bit count of 90 kHz ticks"
            ])
        // Subtitles in fragmented MP4 (IMSC1 in CMAF, say): said, not read as WebVTT.
        #expect(
            try Self.findings(subtitlePlaylist: { $0.replacingOccurrences(of: "#EXTINF:6,\n0.vtt", with: "#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:6,\n0.m4s") })
                == [
                    "hls.segment: subtitles \"English (SDH)\": its subtitle segments are fragmented MP4 (#EXT-X-MAP: IMSC1 or WebVTT in MP4), which are not read yet: their cues are not checked"
                ])
    }
}

/// Packages the ffmpeg CLI builds, then edited as a publisher's tools or hands would: each edit gives exactly its
/// finding.
@Suite(.tags(.media), .notInFastRun) struct FFmpegHLSPackageCheckTests {
    static func findings(muxDelay: Double? = 0, edit: (URL) throws -> Void = { _ in }) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-hlsedit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try HLSTestPackage.build(in: folder, subtitles: [("Media/speech.vtt", "en")], muxDelay: muxDelay)
        try edit(folder)
        return HLSPackageCheck().run(try HLSPackage.load(folder.appendingPathComponent("master.m3u8").path)).findings.map { "\($0.rule): \($0.message)" }
    }

    static func replace(_ old: String, with new: String, in file: URL) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(old), "\(file.lastPathComponent): \(text)")
        try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: file)
    }

    @Test func asBuiltAndAsEdited() throws {
        // As ffmpeg writes it (no mux delay): nothing to say.
        #expect(try Self.findings() == [])
        // Named SDH, one of the two characteristics given.
        #expect(
            try Self.findings { folder in
                try Self.replace(
                    #"NAME="subtitle_0""#, with: #"NAME="English SDH",CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog",FORCED=NO"#,
                    in: folder.appendingPathComponent("master.m3u8"))
            } == [
                "hls.sdh-characteristics: subtitles \"English SDH\" are for the deaf and hard of hearing but CHARACTERISTICS lacks public.accessibility.describes-music-and-sound: players cannot select them from the accessibility settings"
            ])
        // The subtitle playlist cut after its first segment: 4.8 s of subtitles for 12 s of video (segments of 5 s).
        #expect(
            try Self.findings { folder in
                try Self.replace(
                    "#EXTINF:3.600000,\nstream_01.vtt\n#EXTINF:3.600000,\nstream_02.vtt\n", with: "", in: folder.appendingPathComponent("sub_0.m3u8"))
            } == [
                "hls.subtitle-duration: subtitles \"subtitle_0\" last 4.8 s, the video 12 s: more than a segment (5 s) apart"
            ])
        // A segment that is missing.
        #expect(
            try Self.findings { try FileManager.default.removeItem(at: $0.appendingPathComponent("stream_02.vtt")) } == [
                "hls.segment: subtitles \"subtitle_0\": stream_02.vtt: no such file"
            ])
    }

    /// Media segments a publisher's disk may hold instead of segments: a FIFO (opening it to read would block), a link
    /// to a file outside the package, nothing, an empty file. Each is said and left out; the rest is still read.
    @Test func unreadableMediaSegmentsAreSaidAndLeftOut() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-hlsedit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try HLSTestPackage.build(in: folder, subtitles: [("Media/speech.vtt", "en")], segmentSeconds: 2)
        let segment = { (k: Int) in folder.appendingPathComponent(String(format: "stream_0_%02d.ts", k)).path }
        for k in 1...4 { try FileManager.default.removeItem(atPath: segment(k)) }
        #expect(mkfifo(segment(1), 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: segment(2), withDestinationPath: "/etc/hostname")
        try Data().write(to: URL(fileURLWithPath: segment(4)))
        let package = try HLSPackage.load(folder.appendingPathComponent("master.m3u8").path)
        #expect(
            HLSPackageCheck().run(package).findings.map { "\($0.rule): \($0.message)" } == [
                "hls.segment: variant stream_0.m3u8: stream_0_01.ts: not a regular file (a FIFO): left out",
                "hls.reference: variant stream_0.m3u8: stream_0_02.ts: a link that leads outside the package's folder: left out",
                "hls.segment: variant stream_0.m3u8: stream_0_03.ts: no such file: left out",
                "hls.segment: variant stream_0.m3u8: stream_0_04.ts: an empty file: left out",
            ])
        #expect(package.videoFiles.segments.count == package.mediaPlaylists["stream_0.m3u8"].map { $0.segments.count - 4 })
        // What is left is decoded; the flash check says what it could not see.
        let flash = try FlashCheck(decodeThreads: 1).run(package: package)
        #expect(flash.verdict == .unverified, "\(flash.findings.map(\.message))")
        #expect(
            flash.findings.map(\.message) == [
                "4 segments (stream_0_01.ts, stream_0_02.ts, stream_0_03.ts …) of the video could not be read: flashing in them was not checked"
            ])
        let sync = try #require(SyncCheck().check(package: package).first)
        #expect(sync.result.verdict != .pass)
        #expect(
            sync.result.findings.contains {
                $0.rule == "sync.unverified"
                    && $0.message.hasPrefix("4 segments (stream_0_01.ts, stream_0_02.ts, stream_0_03.ts …) of the audio could not be read")
            }, "\(sync.result.findings.map(\.message))")
    }

    /// A well-formed map that is wrong (the second segment's cues put an hour later): nothing in the playlists says
    /// so, the sync of the package does — its cue is past the end of the video.
    @Test func aWrongTimestampMapIsFoundBySync() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-hlsedit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try HLSTestPackage.build(in: folder, subtitles: [("Media/speech.vtt", "en")])
        try Self.replace(
            "WEBVTT\n", with: "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:324000000,LOCAL:00:00:00.000\n", in: folder.appendingPathComponent("stream_01.vtt"))
        let package = try HLSPackage.load(folder.appendingPathComponent("master.m3u8").path)
        #expect(try package.subtitles().cues.map(\.start.milliseconds).sorted().last.map { $0 > 3_600_000 } == true)
        let sync = try #require(SyncCheck().check(package: package).first)
        #expect(sync.result.verdict == .fail)
        #expect(sync.result.findings.contains { $0.rule == "sync.cue-after-end" }, "\(sync.result.findings.map(\.message))")
    }

    /// FFmpeg's default MPEG-TS delay (1.4 s) with WebVTT segments that have no X-TIMESTAMP-MAP: said, with how far.
    @Test func defaultMuxDelayIsSaid() throws {
        let findings = try Self.findings(muxDelay: nil)
        #expect(findings.count == 1)
        #expect(
            findings.first?.range(
                of:
                    #"^hls\.timestamp-map: subtitles "subtitle_0": its 3 WebVTT segments have no X-TIMESTAMP-MAP \(RFC 8216 §3\.5\): their cue times are MPEG-2 times, and the video starts at 1\.4[0-9]{2} s on that clock — unless the cues were written on that clock, they show 1\.4[0-9]{2} s early$"#,
                options: .regularExpression) != nil, "\(findings)")
    }
}

extension JSONValue {
    var arrayCount: Int? { if case .array(let items) = self { items.count } else { nil } }
}
