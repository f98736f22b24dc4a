import Testing

@testable import Captions

/// Times and settings at the edges of what numbers hold, as hostile files write them: read and written without a
/// trap, each to the nearest value that means something.
@Suite struct HostileTimesTests {
    @Test func aTTMLFractionOfHundredsOfDigitsIsAValueFromZeroToOne() {
        var uses = TTMLTiming.Uses()
        let timing = TTMLTiming()
        #expect(timing.milliseconds(of: "0." + String(repeating: "9", count: 400) + "s", uses: &uses) == 1000)
        #expect(timing.milliseconds(of: "1." + String(repeating: "0", count: 400) + "1ms", uses: &uses) == 1)
        #expect(timing.milliseconds(of: "2." + String(repeating: "5", count: 320) + "h", uses: &uses) == 9_200_000)
    }

    @Test func hugeTTMLTimesSaturate() {
        var uses = TTMLTiming.Uses()
        let timing = TTMLTiming()
        #expect(timing.milliseconds(of: "99999999999999999999h", uses: &uses) == .max)
        #expect(timing.milliseconds(of: "9223372036854775807ms", uses: &uses) == .max)
        #expect(CaptionTime(seconds: 1e300).milliseconds == .max && CaptionTime(seconds: -.infinity).milliseconds == .min)
        #expect(CaptionTime(seconds: .nan).milliseconds == 0)
    }

    /// A cue ending at the largest time WebVTT and SRT can write is read; writing it (and a line setting no integer
    /// holds) to every format makes a file, with what could not be kept said.
    @Test func theLargestTimesAndLinesAreWritten() throws {
        let text = "WEBVTT\n\n00:00:01.000 --> 2562047788015:12:55.296 line:100000000000000000000\nhello\n\n00:00:02.000 --> 00:00:03.000 line:-1e21\nthere\n"
        let document = try CaptionFile.read(Array(text.utf8), format: .webvtt)
        #expect(document.cues.count == 2 && document.cues[0].end.milliseconds == 9_223_372_036_854_775_296)
        for format in [CaptionFormat.webvtt, .srt, .ttml, .scc] {
            let written = CaptionFile.encode(document, as: format)
            #expect(!written.bytes.isEmpty, "\(format)")
        }
    }
}
