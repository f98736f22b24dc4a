import Captions
import Findings
import Foundation
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
    static func package(_ edit: (String) -> String = { $0 }, segment: String? = nil) throws -> (folder: URL, master: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-hlscheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("subs"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("audio"), withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nseg0.ts\n#EXTINF:6,\nseg1.ts\n#EXT-X-ENDLIST\n"
        try write("video.m3u8", media)
        try write("audio/en.m3u8", media)
        try write("subs/en.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n0.vtt\n#EXTINF:6,\n1.vtt\n#EXT-X-ENDLIST\n")
        try write("subs/0.vtt", "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\n\n00:00:01.000 --> 00:00:03.000\nHello.\n")
        try write("subs/1.vtt", segment ?? "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:540000,LOCAL:00:00:00.000\n\n00:00:01.000 --> 00:00:02.000\n[door slams]\n")
        try write("master.m3u8", edit(master))
        return (folder, folder.appendingPathComponent("master.m3u8").path)
    }

    static func findings(_ edit: (String) -> String = { $0 }, segment: String? = nil) throws -> [String] {
        let (folder, master) = try package(edit, segment: segment)
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
    }
}

extension JSONValue {
    var arrayCount: Int? { if case .array(let items) = self { items.count } else { nil } }
}
