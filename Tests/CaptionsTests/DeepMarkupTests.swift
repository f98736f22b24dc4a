import Foundation
import Testing

@testable import Captions

/// Cue text of any depth or length is read, converted and written without recursion: elements nest at most
/// `maxCueMarkupDepth` deep (deeper tags ignored, reported once), and walks over cue text build no tree.
@Suite struct DeepMarkupTests {
    private func nested(_ tag: String, _ depth: Int, text: String = "deep") -> String {
        String(repeating: "<\(tag)>", count: depth) + text + String(repeating: "</\(tag)>", count: depth)
    }

    /// The depth of the deepest element of `nodes` (walked without recursion).
    private func depth(_ nodes: [CueNode]) -> Int {
        var deepest = 0, current = 0
        CueNode.walk(nodes) { event in
            if case .start = event { current += 1; deepest = max(deepest, current) }
            if case .end = event { current -= 1 }
        }
        return deepest
    }

    /// 40,000 nested `<b>` in one WebVTT cue (a 280 KB file): one cue, its text, a shallow tree, a conversion.
    @Test func fortyThousandNestedBoldInWebVTT() throws {
        let text = nested("b", 40_000)
        let document = try WebVTTReader().read(Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\(text)\n".utf8))
        #expect(document.cues.count == 1)
        #expect(document.cues[0].plainText == "deep")
        #expect(depth(document.cues[0].nodes) == maxCueMarkupDepth)
        var problems: [CueTextProblem] = []
        _ = CueTextParser.parse(text, problems: &problems)
        #expect(problems.map(\.message) == ["tags nested more than 100 deep: the deeper ones ignored"])
        let srt = CaptionFile.encode(document, as: .srt).bytes
        let reread = try SRTReader().read(srt)
        #expect(reread.cues.map { $0.plainText(in: .srt) } == ["deep"])
        #expect(String(decoding: srt, as: UTF8.self).hasPrefix("1\n00:00:01,000 --> 00:00:02,000\n" + String(repeating: "<b>", count: 100) + "deep</b>"))
    }

    /// 50,000 nested `<i>` in an SRT cue.
    @Test func fiftyThousandNestedItalicInSRT() throws {
        let text = nested("i", 50_000)
        let document = try SRTReader().read(Array("1\n00:00:01,000 --> 00:00:02,000\n\(text)\n".utf8))
        #expect(document.cues.count == 1)
        #expect(document.cues[0].plainText(in: .srt) == "deep")
        #expect(depth(document.cues[0].nodes(in: .srt)) == maxCueMarkupDepth)
        #expect(SRTMarkup.problems(of: text).map(\.message) == ["tags nested more than 100 deep: the deeper ones ignored"])
        let vtt = CaptionFile.encode(document, as: .webvtt).bytes
        #expect(try WebVTTReader().read(vtt).cues.map(\.plainText) == ["deep"])
    }

    /// Deep nesting beyond the limit keeps the text in order and the elements that matter.
    @Test func textAroundIgnoredTagsStaysInOrder() {
        let text = String(repeating: "<b>", count: 150) + "a" + String(repeating: "</b>", count: 150) + "<i>b</i>"
        #expect(CueTextParser.plainText(text) == "ab")
        #expect(CueTextParser.parse(text).last == .element(CueElement(kind: .italic, children: [.text("b")])))
        let srt = String(repeating: "<u>", count: 150) + "a" + String(repeating: "</u>", count: 150) + "<i>b</i>"
        #expect(SRTMarkup.plainText(of: srt) == "ab")
        #expect(SRTMarkup.nodes(of: srt).last == .element(CueElement(kind: .italic, children: [.text("b")])))
    }

    /// A walk gives the events of the tree `parse` builds, in order, with ruby text left out of plain text.
    @Test func walkingAndParsingAgree() {
        let text = "<v Ann>Hi <ruby>漢<rt>kan</rt></ruby> <c.yellow>there<00:00:01.000></c></v>"
        var events: [CueMarkupEvent] = []
        CueTextParser.walk(text) { events.append($0) }
        var fromTree: [CueMarkupEvent] = []
        CueNode.walk(CueTextParser.parse(text)) { fromTree.append($0) }
        #expect(events == fromTree)
        #expect(events.count == 14)
        #expect(CueTextParser.plainText(text) == "Hi 漢 there")
        #expect(Cue(start: .zero, end: .zero, text: text).firstVoice == "Ann")
    }

    /// Override blocks and tags without their closing character are text, read in one pass (a search for a
    /// "}" or ">" that starts again at every "{" or "<" is quadratic: 100,000 of them took minutes).
    @Test func unclosedBracesAndAnglesAreText() {
        let braces = String(repeating: "{\\", count: 100_000)
        #expect(SRTMarkup.plainText(of: braces) == braces)
        let angles = String(repeating: "<a", count: 100_000)
        #expect(SRTMarkup.plainText(of: angles) == angles)
        var document = CaptionDocument(format: .webvtt, cues: [Cue(start: .zero, end: .zero, text: String(repeating: "<1", count: 100_000))])
        _ = TimingEdit(offset: 1).apply(to: &document)
        #expect(document.cues[0].text == String(repeating: "<1", count: 100_000))
    }
}
