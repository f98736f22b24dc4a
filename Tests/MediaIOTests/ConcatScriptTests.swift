import Testing

@testable import MediaIO

/// The files an ffconcat script names, read as FFmpeg's concat demuxer reads them: what MediaLint admits before the
/// demuxer opens anything must be exactly what it would open.
@Suite struct ConcatScriptTests {
    @Test func fileLinesAreTokensWithQuotesAndEscapes() {
        let script = ConcatScript(
            Array(
                """
                ffconcat version 1.0
                # file commented.mp4
                file plain.mp4
                  file 'with space.mp4'
                file a\\ b.mp4   trailing
                file 'it'\\''s.mp4'
                file ../up.mp4\rfile /abs/olute.mp4\u{0}file after-nul.mp4
                duration 4
                file
                """.utf8))
        #expect(script.files == ["plain.mp4", "with space.mp4", "a b.mp4", "it's.mp4", "../up.mp4", "/abs/olute.mp4", "after-nul.mp4", ""])
        #expect(script.refusedKeyword == nil)
    }

    @Test func optionLinesAreRefused() {
        let script = ConcatScript(Array("ffconcat version 1.0\nfile a.mp4\noption protocol_whitelist file,http\n".utf8))
        #expect(script.files == ["a.mp4"])
        #expect(script.refusedKeyword == "option")
    }

    @Test func tokensKeepQuotedTrailingSpaceAndDropTheRest() {
        #expect(ConcatScript.token(ArraySlice(Array("  'a '  ".utf8))) == "a ")
        #expect(ConcatScript.token(ArraySlice(Array("a\\ ".utf8))) == "a ")
        #expect(ConcatScript.token(ArraySlice(Array("'unclosed quote".utf8))) == "unclosed quote")
        #expect(ConcatScript.token(ArraySlice(Array("x\\".utf8))) == "x\\")
    }
}
