import Captions
import Foundation
import MediaIO
import Testing

@testable import Checks

/// Where `sync` finds captions: embedded tracks made into documents, and sidecar files by name.
struct CaptionSourceTests {
    @Test func assTextBecomesSRTText() {
        #expect(EmbeddedCaptions.fromASS("{\\an8}{\\i1}Hello{\\i0}\\Nworld") == "<i>Hello</i>\nworld")
        #expect(EmbeddedCaptions.fromASS("{\\b1\\fs20}Loud{\\b0} and\\hclear") == "<b>Loud</b> and\u{00A0}clear")
        #expect(EmbeddedCaptions.fromASS("a \\ b {unclosed") == "a \\ b {unclosed")
    }

    @Test func cuesBecomeADocument() {
        let cues = [
            EmbeddedCue(start: 1, end: 2.5, text: "First\n\nline --> two", markup: .srt),
            EmbeddedCue(start: 3, end: nil, text: "No end", markup: .srt),
            EmbeddedCue(start: 4, end: nil, text: "Last", markup: .srt),
        ]
        let document = EmbeddedCaptions.document(from: cues)
        #expect(document.format == .srt)
        #expect(document.cues.map(\.text) == ["First\nline -> two", "No end", "Last"])
        #expect(document.cues.map(\.end.seconds) == [2.5, 4, 9])
    }

    @Test func webVTTTracksKeepIdentifiersAndSettings() {
        let cues = [EmbeddedCue(start: 0.5, end: 1.5, text: "<v Ann>Hi", markup: .webvtt, identifier: "intro", settings: "line:10% align:start")]
        let document = EmbeddedCaptions.document(from: cues)
        #expect(document.format == .webvtt)
        #expect(document.cues.first?.identifier == "intro")
        #expect(document.cues.first?.settings.line == 10 && document.cues.first?.settings.align == .start)
        #expect(document.cues.first?.plainText == "Hi")
    }

    @Test func sidecarsAreFoundByName() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-sidecars-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sources = [
            "talk.vtt", "talk.en.srt", "talk.en-US.vtt", "talk.forced.en.srt", "talk.pt_BR.srt", "talk.eng.SDH.srt", "talk.zh-Hant-TW.vtt",
            "talk.es-419.cc.srt", "talk.hi.srt", "talk.ko.smi", "talk.ja.ass", "talk.ssa", "talk.sbv", "talk.stl",
        ]
        // Caption files in formats MediaLint does not read: named, never sources.
        let unread = ["talk.lrc", "talk.en.sub", "talk.idx", "talk.de.sup"]
        // Other infixes make other files: the README's fixed copy, a backup, versions, words.
        let others = [
            "talks.vtt", "talk.txt", "other.srt", "talk.fixed.srt", "talk.bak.srt", "talk.v2.srt", "talk.old.srt", "talk.en.fixed.srt", "talk..srt",
            "talk.en.de.srt",
        ]
        for name in ["talk.mp4"] + sources + others + unread + ["talk.v2.sup"] { try Data().write(to: directory.appendingPathComponent(name)) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("talk.de.vtt"), withIntermediateDirectories: true)
        let media = directory.appendingPathComponent("talk.mp4").path
        let found = CaptionSidecars.find(for: media)
        #expect(found.map { ($0 as NSString).lastPathComponent } == sources.sorted())
        let unreadFound = CaptionSidecars.findUnread(for: media)
        #expect(unreadFound.map { ($0 as NSString).lastPathComponent } == unread.sorted())
        #expect(
            CaptionPresence.missingCaptions(speechSeconds: 12.34, unread: unreadFound).message.hasSuffix(
                "but the audio has 12.3 s of speech; talk.de.sup, talk.en.sub, talk.idx, talk.lrc are beside it, in a format MediaLint does not read"))
    }

    @Test func sidecarTagsAreALanguageAndRoles() {
        #expect(SidecarTags("en-US") == SidecarTags(language: "en-us", roles: []))
        #expect(SidecarTags("forced.pt_BR") == SidecarTags(language: "pt-br", roles: ["forced"]))
        #expect(SidecarTags("eng.sdh.default") == SidecarTags(language: "eng", roles: ["sdh", "default"]))
        #expect(SidecarTags("hi") == SidecarTags(language: "hi", roles: []), "Hindi first: a language before a role")
        #expect(SidecarTags("en.hi") == SidecarTags(language: "en", roles: ["hi"]))
        for other in ["fixed", "bak", "xx", "en-USA", "en-US-x", "english", "en.de", "v2", ""] { #expect(SidecarTags(other) == nil, "\(other)") }
    }
}
