import Captions
import Findings
import Testing

@testable import CaptionQuality

/// What `lint --fix` changes, cue by cue, on documents built in memory: exact times and lines, every word kept, and
/// the fixed document passing the rules it fixes.
struct CaptionFixerTests {
    static func cue(_ start: Int64, _ end: Int64, _ text: String) -> Cue {
        Cue(start: CaptionTime(milliseconds: start), end: CaptionTime(milliseconds: end), text: text)
    }

    /// Netflix at 24 fps: 2 frames (84 ms) between cues, at least 5/6 s (834 ms) on screen, 42 characters, 2 lines.
    static let document = CaptionDocument(
        format: .webvtt,
        cues: [
            cue(1000, 3000, "An overlap: it ends late."),
            cue(2500, 4000, "The next one starts here."),
            cue(4000, 4300, "Short,"),
            cue(6000, 8000, "with room after it to read."),
            cue(8040, 10000, "A gap of one frame before this one."),
            cue(11000, 13000, "<i>This single line is much longer</i> than forty-two characters."),
            cue(14000, 16000, "One,\ntwo,\nthree."),
            cue(17000, 19000, "- Who is it?\n- It's me, your neighbour from across the street, again."),
        ])

    @Test func eachFixableProblemIsFixed() {
        let (fixed, changes) = CaptionFixer(profile: .netflix, framesPerSecond: 24).fix(Self.document)
        #expect(
            fixed.cues.map { "\($0.start.milliseconds)-\($0.end.milliseconds)" } == [
                "1000-2416", "2500-4000", "4000-4834", "6000-7956", "8040-10000", "11000-13000", "14000-16000", "17000-19000",
            ])
        #expect(fixed.cues[5].text == "<i>This single line is much longer</i>\nthan forty-two characters.")
        #expect(fixed.cues[6].text == "One, two, three.")
        #expect(fixed.cues[7].text == Self.document.cues[7].text, "three lines where two are allowed: left, and said")
        #expect(
            changes.map { "\($0.cue) \($0.rule)\($0.applied ? "" : " (not applied)")" } == [
                "1 lint.overlap", "3 lint.min-duration", "4 lint.min-gap", "6 lint.line-length", "7 lint.max-lines", "8 lint.line-length (not applied)",
            ])
        #expect(changes[0].description == "end 00:00:03.000 → 00:00:02.416: it overlapped cue 2")
        // Every word kept, in order.
        func words(_ document: CaptionDocument) -> [String] {
            document.cues.flatMap { $0.text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init) }
        }
        #expect(words(fixed) == words(Self.document))
        // The rules it fixes find nothing more but the dialogue cue, whose words need three lines: left, and said.
        let fixable: Set = ["lint.overlap", "lint.min-gap", "lint.min-duration", "lint.line-length", "lint.max-lines"]
        let left = CaptionLinter(profile: .netflix, framesPerSecond: 24).lint(fixed).filter { fixable.contains($0.rule) }.map {
            "\($0.data["cue"]?.intValue ?? 0) \($0.rule)"
        }
        #expect(left == ["8 lint.line-length"], "\(left)")
    }

    /// An overlap is fixed in time order and place by place: a sign at the top beside dialogue overlaps nothing, and
    /// cues of an SRT out of order are compared with those on screen with them, not with their neighbours in the file.
    /// An overlap whose fix would leave a cue too short or too fast to read is left, and said.
    @Test func overlapsAreOnScreenTogetherInOnePlace() {
        var sign = Self.cue(1000, 7000, "EXIT")
        var top = CueSettings()
        top.line = 0
        sign.settings = top
        let document = CaptionDocument(
            format: .srt,
            cues: [
                sign, Self.cue(1000, 3000, "Dialogue under the sign."), Self.cue(9000, 10000, "Later, first in the file? No."),
                Self.cue(5000, 8000, "Then this one."), Self.cue(7500, 8500, "Overlapping it."),
            ])
        let (fixed, changes) = CaptionFixer(profile: .netflix, framesPerSecond: 24).fix(document)
        #expect(fixed.cues.map(\.end.milliseconds) == [7000, 3000, 10000, 7416, 8500])
        #expect(changes.map { "\($0.cue) \($0.rule) \($0.applied)" } == ["4 lint.overlap true"])
        let findings = CaptionLinter(profile: .netflix, framesPerSecond: 24).lint(document).filter { $0.rule == "lint.overlap" }
        #expect(findings.map { $0.data["cue"]?.intValue ?? 0 } == [5])
        #expect(CaptionLinter(profile: .netflix, framesPerSecond: 24).lint(fixed).filter { $0.rule == "lint.overlap" }.isEmpty)

        let tight = CaptionDocument(
            format: .srt, cues: [Self.cue(1000, 3000, "A long line that needs its two seconds."), Self.cue(1500, 3000, "Next.")])
        let (unchanged, refused) = CaptionFixer(profile: .netflix, framesPerSecond: 24).fix(tight)
        #expect(unchanged == tight)
        #expect(
            refused == [
                CaptionFixer.Change(
                    cue: 1, rule: "lint.overlap",
                    description:
                        "it overlaps cue 2, and ending it before that would leave it 0.5 s on screen (78 characters a second): too short or too fast to read; change the text or the times",
                    applied: false)
            ])
    }

    /// A cue boxed in by the next: lengthened as far as the gap allows, and said so; cues never shown are left alone.
    @Test func whatCannotBeFixedIsLeft() {
        let boxed = CaptionDocument(format: .srt, cues: [Self.cue(1000, 1300, "Quick"), Self.cue(1500, 3000, "Next"), Self.cue(4000, 4000, "Never")])
        let (fixed, changes) = CaptionFixer(profile: .netflix, framesPerSecond: 24).fix(boxed)
        #expect(fixed.cues.map(\.end.milliseconds) == [1416, 3000, 4000])
        #expect(changes.map(\.description) == ["end 00:00:01.300 → 00:00:01.416: too short to read (as long as the next cue allows)"])
        #expect(CaptionFixer(profile: .netflix).fix(CaptionDocument(format: .webvtt, cues: [Self.cue(0, 2000, "Fine.")])).changes.isEmpty)
    }

    /// Lines broken as subtitlers break them: two speakers on one line each get a line, a line ends at a clause's
    /// end rather than on "the", a name is not split; never into more lines than the profile allows (said instead, in
    /// a format that takes no new cue); and a rule turned off for a cue with `NOTE medialint-disable-next` is not fixed
    /// in it.
    @Test func linesBreakWhereASubtitlerBreaksThem() {
        #expect(CueLines("- Are you coming tonight? - Yes, I will be there.").rebroken(limit: 42) == "- Are you coming tonight?\n- Yes, I will be there.")
        #expect(CueLines("<i>- Who?</i> <i>- Me, again.</i>").rebroken(limit: 42) == "<i>- Who?</i>\n<i>- Me, again.</i>")
        #expect(
            CueLines("We walked all the way to the old station in the rain").rebroken(limit: 42)
                == "We walked all the way\nto the old station in the rain")
        #expect(CueLines("I finally met the famous Doctor Watson today").rebroken(limit: 30) == "I finally met the famous\nDoctor Watson today")
        #expect(CueLines("When it rains, we stay inside and read books").rebroken(limit: 30) == "When it rains,\nwe stay inside and read books")

        let long = String(repeating: "words that will not fit ", count: 5).trimmingCharacters(in: .whitespaces)
        let notes = CaptionDocument(
            format: .ttml, notes: [CaptionNote(cuesBefore: 1, text: " medialint-disable-next lint.line-length")],
            cues: [Self.cue(1000, 9000, long), Self.cue(10000, 14000, "<i>This single line is much longer</i> than forty-two characters.")])
        let (fixed, changes) = CaptionFixer(profile: .netflix, framesPerSecond: 24).fix(notes)
        #expect(fixed == notes)
        #expect(
            changes == [
                CaptionFixer.Change(
                    cue: 1, rule: "lint.line-length",
                    description:
                        "its words need 3 lines of at most 42 characters (at most 2): split the cue in two, or shorten it (a fix splits cues in SRT and WebVTT files, not in TTML)",
                    applied: false)
            ])
    }

    /// A cue two lines cannot hold is split in two where a subtitler would — after a sentence, between speakers — its
    /// time shared by characters with the profile's gap between the halves, on the file's time grid; not when a half
    /// would be too short to read, or its markup would be cut.
    @Test func aCueTwoLinesCannotHoldIsSplitAtASentenceEnd() {
        let text = "We got to the station just before midnight. The last train had already gone, so we walked home."
        var cue = Self.cue(1000, 7000, text)
        cue.line = 3
        let (fixed, changes) = CaptionFixer(profile: .netflix, framesPerSecond: 25).fix(CaptionDocument(format: .srt, cues: [cue]))
        #expect(
            fixed.cues.map { "\($0.start)–\($0.end) \($0.text)" } == [
                "00:00:01.000–00:00:03.689 We got to the station\njust before midnight.",
                "00:00:03.769–00:00:07.000 The last train had already gone,\nso we walked home.",
            ])
        #expect(fixed.cues.map(\.line) == [3, 3], "both halves are where the cue was read")
        #expect(
            changes.map(\.description) == [
                "split in two (its words need 3 lines of at most 42 characters): 00:00:01.000–00:00:03.689 and 00:00:03.769–00:00:07.000"
            ])
        // Two speakers: a half each. On ASS's centisecond grid the halves' times are its own.
        let dialogue = "- Did you hear what happened at the station last night? - No, I was asleep at home before ten."
        let ass = CaptionDocument(format: .webvtt, cues: [Self.cue(2000, 8000, dialogue)])
        #expect(
            CaptionFixer(profile: .netflix).fix(ass).document.cues.map(\.text) == [
                "- Did you hear what happened\nat the station last night?", "- No, I was asleep at home before ten.",
            ])
        var grid = CaptionDocument(format: .webvtt, cues: [Self.cue(1000, 7000, text)])
        grid.timeStep = 0.04
        #expect(CaptionFixer(profile: .netflix).fix(grid).document.cues.map(\.start.milliseconds) == [1000, 3800])
        // Halves too short to read, and markup across the split: said, not split.
        let short = CaptionFixer(profile: .netflix).fix(CaptionDocument(format: .srt, cues: [Self.cue(1000, 2200, text)]))
        #expect(short.document.cues.count == 1 && short.changes.map(\.applied) == [false])
        #expect(
            short.changes.first?.description
                == "its words need 3 lines of at most 42 characters (at most 2), and a half would be on screen less than 0.834 s: shorten it")
        let styled = CaptionFixer(profile: .netflix).fix(CaptionDocument(format: .srt, cues: [Self.cue(1000, 7000, "<i>\(text)</i>")]))
        #expect(styled.document.cues.count == 1 && styled.changes.first?.description.contains("its markup would have to be split too") == true)
    }

    @Test func wrappingIsEvenAndBottomHeavy() {
        #expect(CueLines("aaa bbb ccc ddd").rebroken(limit: 10) == "aaa bbb\nccc ddd")
        #expect(CueLines("aaaa bb cc").rebroken(limit: 7) == "aaaa\nbb cc")
        #expect(CueLines("one two three").rebroken(limit: 20) == "one two three")
        #expect(CueLines("a &amp; b <b>c</b>").lines.map(\.visible) == [7])
        #expect(CueLines("supercalifragilistic word").rebroken(limit: 10) == "supercalifragilistic\nword")
    }
}
