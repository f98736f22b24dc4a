import Foundation
import Testing

@testable import MediaIO

/// Embedded text tracks read back with the times and text they were made from (Media/speech.srt).
@Suite struct SubtitleTrackReaderTests {
    static let sentences = [
        "Welcome to the media accessibility demo.",
        "Captions should appear when the words are spoken.",
        "Flashing lights can trigger seizures in some viewers.",
        "Thank you for watching this short clip.",
    ]
    static let times = [(0.5, 2.824), (3.5, 6.092), (6.5, 9.312), (9.5, 11.728)]
    /// The Matroska muxer moved every stream of the sample 21 ms later (see Media/generate.sh).
    static let muxerShift = 0.021

    @Test(arguments: [(2, SubtitleMarkup.srt), (3, .ass), (4, .webvtt)])
    func cuesOfEachTrack(index: Int, markup: SubtitleMarkup) throws {
        let cues = try SubtitleTrackReader.cues(path: TestMedia.path("embedded-subtitles.mkv"), streamIndex: index)
        #expect(cues.map(\.text) == Self.sentences)
        #expect(cues.allSatisfy { $0.markup == markup })
        for (cue, (start, end)) in zip(cues, Self.times) {
            #expect(abs(cue.start - (start + Self.muxerShift)) < 1e-9)
            #expect(abs(try #require(cue.end) - (end + Self.muxerShift)) < 1e-9)
        }
    }

    @Test func defaultIsTheFirstTextTrack() throws {
        let cues = try SubtitleTrackReader.cues(path: TestMedia.path("embedded-subtitles.mkv"))
        #expect(cues.first?.markup == .srt)
    }

    @Test func noTextTrack() {
        let path = TestMedia.path("speech.mp4")
        #expect(throws: MediaError(.noSuchStream, path: path, reason: "the file has no text subtitle track")) {
            try SubtitleTrackReader.cues(path: path)
        }
        let mkv = TestMedia.path("embedded-subtitles.mkv")
        #expect(throws: MediaError(.noSuchStream, path: mkv, reason: "stream #0 is not a subtitle stream")) {
            try SubtitleTrackReader.cues(path: mkv, streamIndex: 0)
        }
    }

    @Test func assEventText() {
        #expect(SubtitleTrackReader.dialogueText(ofASSEvent: "0,0,Default,,0,0,0,,Hello, world{\\i1}!") == "Hello, world{\\i1}!")
        #expect(SubtitleTrackReader.dialogueText(ofASSEvent: "no fields") == "no fields")
    }
}
