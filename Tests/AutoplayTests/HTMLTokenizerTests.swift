import Testing

@testable import Autoplay

/// The tokenizer reads markup as a browser would for what the autoplay check needs.
struct HTMLTokenizerTests {
    func starts(_ html: String) -> [HTMLStartTag] {
        HTMLTokenizer(html).tokens().compactMap { if case .start(let tag) = $0 { tag } else { nil } }
    }

    @Test func namesAndAttributesAsBrowsersReadThem() {
        let tags = starts("<AUDIO SRC=a.mp3 AutoPlay Loop=\"\" data-x='1 2' muted=muted/>")
        #expect(tags.count == 1)
        let tag = tags[0]
        #expect(tag.name == "audio")
        #expect(tag.attributes.map(\.name) == ["src", "autoplay", "loop", "data-x", "muted"])
        #expect(tag.attribute("src") == "a.mp3" && tag.attribute("autoplay") == "" && tag.attribute("data-x") == "1 2")
        #expect(tag.attribute("muted") == "muted/", "an unquoted value runs to whitespace or '>', slash included")
    }

    @Test func duplicateAttributesKeepTheFirst() {
        #expect(starts("<video src=a.mp4 src=b.mp4>").first?.attribute("src") == "a.mp4")
    }

    @Test func referencesInValuesAreDecoded() {
        #expect(starts("<source src=\"a&amp;b.mp3?x=1&#38;y=&#x32;\">").first?.attribute("src") == "a&b.mp3?x=1&y=2")
        // Every named reference of HTML, as the caption readers decode them: one table.
        #expect(starts("<video src=\"caf&eacute;.mp4\">").first?.attribute("src") == "café.mp4")
        #expect(starts("<video src=\"caf&eacute.mp4\">").first?.attribute("src") == "café.mp4")
        #expect(starts("<video src=\"&hearts;&NotNestedGreaterGreater;\">").first?.attribute("src") == "♥⪢̸")
        // In a value, a legacy name without ";" before "=" or a letter stays as written (query strings keep theirs).
        #expect(starts("<video src=\"v.mp4?a=1&copy=2&notit\">").first?.attribute("src") == "v.mp4?a=1&copy=2&notit")
        #expect(HTMLTokenizer("<p>&copy 2026 &notit;</p>").tokens().contains { if case .text(let text) = $0 { text == "© 2026 ¬it;" } else { false } })
    }

    @Test func commentsAndRawTextHideMarkup() {
        let html = """
            <!-- <audio autoplay src=a.mp3> -->
            <script>var s = "<audio autoplay src=b.mp3>";</script>
            <noscript><audio autoplay src=c.mp3></audio></noscript>
            <textarea><video autoplay></textarea>
            <!DOCTYPE html><?xml ?>
            <audio autoplay src=d.mp3></audio>
            """
        #expect(starts(html).map(\.name) == ["script", "noscript", "textarea", "audio"])
        #expect(starts(html).last?.attribute("src") == "d.mp3")
        #expect(starts(html).last?.line == 6)
    }

    @Test func scriptEndsOnlyAtItsEndTag() {
        let tokens = HTMLTokenizer("<script>if (a</scripts>) {}</SCRIPT ><audio autoplay>").tokens()
        #expect(tokens.count == 4)
        #expect(tokens[1] == .text("if (a</scripts>) {}"))
        #expect(tokens[3] == .start(HTMLStartTag(name: "audio", attributes: [("autoplay", "")], line: 1, selfClosing: false)))
    }

    @Test func unterminatedCommentHidesTheRest() {
        #expect(starts("<p><!-- <audio autoplay src=a.mp3>").map(\.name) == ["p"])
    }
}

/// What the scanner makes of pages.
struct PageScannerTests {
    @Test func elementsAndTheirSources() {
        let (elements, reviews) = PageScanner.scan(
            """
            <audio autoplay="false" loop controls src=" a.mp3 "></audio>
            <video autoplay muted><source src="v.webm"><source src="v.mp4"></video>
            <video src=x.mp4 autoplay><source src=ignored.mp4></video>
            <audio src=b.mp3></audio>
            <template><audio autoplay src=t.mp3></audio></template>
            <iframe src="https://player.example/v?id=1&autoplay=1"></iframe>
            <iframe src="https://player.example/v?id=2"></iframe>
            <bgsound src=old.mid>
            <script>document.getElementById('x').play();</script>
            """)
        #expect(elements.map(\.sources) == [["a.mp3"], ["v.webm", "v.mp4"], ["x.mp4"]])
        #expect(elements.map(\.line) == [1, 2, 3])
        #expect(elements[0].autoplayValue == "false" && elements[0].loop && elements[0].controls && !elements[0].muted)
        #expect(elements[1].muted && elements[1].kind == .video)
        #expect(reviews.map(\.kind) == ["iframe", "bgsound", "script"])
        #expect(reviews.map(\.line) == [6, 8, 9])
    }

    @Test func fragmentsAndRules() {
        #expect(MediaFragment.split("a.mp3#t=10,20") == ("a.mp3", 10, 20))
        #expect(MediaFragment.split("a.mp3#t=,5") == ("a.mp3", nil, 5))
        #expect(MediaFragment.split("a.mp3#t=npt:1:05") == ("a.mp3", 65, nil))
        #expect(MediaFragment.split("a.mp3#t=00:01:02.5,00:01:10") == ("a.mp3", 62.5, 70))
        #expect(MediaFragment.split("a.mp3") == ("a.mp3", nil, nil))
        let wcag = AutoplayRules(profile: .wcag), kwcag = AutoplayRules(profile: .kwcag)
        #expect(!wcag.fails(audibleSeconds: 3, controls: false) && wcag.fails(audibleSeconds: 3.01, controls: false))
        #expect(!wcag.fails(audibleSeconds: 20, controls: true))
        #expect(kwcag.fails(audibleSeconds: 3, controls: false) && kwcag.fails(audibleSeconds: 20, controls: true))
        #expect(!kwcag.fails(audibleSeconds: 2.9, controls: false))
    }

    @Test func audibleStretches() {
        // 10 ms frames: 1 s of sound, a 0.3 s gap (bridged), 0.5 s of sound, 1 s of quiet, a 50 ms burst (dropped).
        let levels: [Float] =
            Array(repeating: -20, count: 100) + Array(repeating: -80, count: 30) + Array(repeating: -30, count: 50)
            + Array(repeating: -90, count: 100) + Array(repeating: -10, count: 5) + Array(repeating: -90, count: 10)
        let stretches = AudioActivity.stretches(levels: levels, frameSeconds: 0.01)
        #expect(stretches.count == 1)
        #expect(abs(stretches[0].lowerBound) < 1e-9 && abs(stretches[0].upperBound - 1.8) < 1e-9)
    }
}

/// An element with very many attributes (hostile pages): duplicates dropped as the standard says — the first
/// one wins — with a set, so 100,000 attributes take linear time.
@Suite struct ManyAttributesTests {
    @Test func duplicatesAmongManyAttributesKeepTheFirst() {
        var html = "<video"
        for index in 0..<100_000 { html += " data-a\(index % 50_000)=\"\(index)\"" }
        html += " AUTOPLAY src=first.mp4 src=second.mp4></video>"
        let tokens = HTMLTokenizer(html).tokens()
        guard case .start(let tag)? = tokens.first else {
            Issue.record("no start tag")
            return
        }
        #expect(tag.attributes.count == 50_002)
        #expect(tag.attribute("data-a49999") == "49999")
        #expect(tag.attribute("src") == "first.mp4")
        #expect(tag.has("autoplay"))
    }
}

/// A media element with very many `<source>` children (a hostile page): every source is kept, in order, each appended
/// in place (a copy of the element per source made the scan quadratic).
@Suite struct ManySourcesTests {
    @Test func everySourceOfAVeryLongListIsKept() {
        let page = "<video autoplay>" + (0..<20_000).map { "<source src=\"m\($0).mp4\">" }.joined() + "</video>"
        let (elements, _) = PageScanner.scan(page)
        #expect(elements.count == 1 && elements[0].sources.count == 20_000)
        #expect(elements[0].sources.first == "m0.mp4" && elements[0].sources.last == "m19999.mp4")
    }
}
