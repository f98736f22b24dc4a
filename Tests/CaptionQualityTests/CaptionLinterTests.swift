import Captions
import Findings
import Foundation
import Testing

@testable import CaptionQuality

/// The rules on hand-made caption files whose problems are known line by line.
struct CaptionLinterTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func read(_ name: String) throws -> CaptionDocument { try CaptionFile.read(fixtures.appendingPathComponent(name).path) }

    /// (rule, cue number, line of the cue's timing line) for each issue, in file order.
    static func located(_ findings: [Finding]) -> [String] { findings.map { "\($0.rule) cue \(cue($0)) line \($0.line ?? 0)" } }

    /// The cue a finding is about (0: the whole file).
    static func cue(_ finding: Finding) -> Int { finding.data["cue"]?.intValue ?? 0 }

    /// A file that is only a timing line (no text) is one empty cue, as the WebVTT parsing algorithm makes it (some
    /// libraries call the file malformed); SRT is read alike. Lint names the cue, so it is neither lost nor silent.
    @Test func aTimingLineWithNoTextIsOneEmptyCueLintNames() throws {
        for (bytes, format) in [("WEBVTT\n\n00:00.000 --> 00:01.000\n", CaptionFormat.webvtt), ("1\n00:00:00,000 --> 00:00:01,000\n", .srt)] {
            let document = try CaptionFile.read(Array(bytes.utf8), format: format)
            #expect(document.cues.map { "\($0.start.milliseconds)-\($0.end.milliseconds) [\($0.text)]" } == ["0-1000 []"], "\(format)")
            #expect(CaptionLinter(profile: .netflix).lint(document).map(\.rule) == ["lint.empty"], "\(format)")
        }
    }

    @Test func everyRuleOnce() throws {
        let linter = CaptionLinter(profile: .netflix, framesPerSecond: 24, mediaDuration: 32.5)
        let issues = linter.lint(try Self.read("every-rule.vtt"))
        #expect(
            Self.located(issues) == [
                "lint.min-duration cue 2 line 6",
                "lint.min-gap cue 3 line 9",
                "lint.max-duration cue 4 line 12",
                "lint.reading-speed cue 5 line 15",
                "lint.line-length cue 6 line 19",
                "lint.max-lines cue 7 line 22",
                "lint.overlap cue 9 line 30",
                "lint.empty cue 10 line 33",
                "lint.negative-duration cue 11 line 35",
                "lint.markup cue 12 line 38",
                "lint.after-end cue 12 line 38",
            ])
        let byRule = Dictionary(grouping: issues, by: \.rule)
        #expect(byRule["lint.min-duration"]?.first?.data["measured"] == .number(0.5) && byRule["lint.min-duration"]?.first?.data["limit"] == .number(0.833))
        #expect(byRule["lint.reading-speed"]?.first?.data["measured"] == .number(47))
        #expect(byRule["lint.line-length"]?.first?.message == "cue 6: line 1 has 58 characters (at most 42): break it differently")
        #expect(byRule["lint.min-gap"]?.first?.message == "cue 3: only 1 frame (40 ms) after cue 2: leave at least 2 frames, or close the gap")
        #expect(byRule["lint.overlap"]?.first?.severity == .error && byRule["lint.empty"]?.first?.severity == .error)
        #expect(byRule["lint.negative-duration"]?.first?.severity == .error && byRule["lint.after-end"]?.first?.severity == .error)
        #expect(byRule["lint.min-duration"]?.first?.guidelines == ["Netflix TTSG"])
        #expect(byRule["lint.min-gap"]?.first?.start == 3.54 && byRule["lint.min-gap"]?.first?.end == 6)
    }

    @Test func aCleanFileHasNothingForAnyProfile() throws {
        for profile in QualityProfile.all {
            #expect(CaptionLinter(profile: profile).lint(try Self.read("clean.vtt")).isEmpty, "\(profile.name)")
        }
    }

    /// Line lengths 35/38/43 and reading speeds of 200 and 240 words a minute: each profile draws its own line.
    @Test func profilesDrawTheirOwnLines() throws {
        let document = try Self.read("profiles.srt")
        func summary(_ profile: QualityProfile) -> [String] {
            CaptionLinter(profile: profile).lint(document).filter { Self.cue($0) > 0 }.map { "\($0.rule) \(Self.cue($0)) \($0.severity)" }
        }
        #expect(summary(.netflix) == ["lint.line-length 3 warning", "lint.reading-speed 5 warning", "lint.markup 6 warning"])
        #expect(
            summary(.bbc) == [
                "lint.line-length 2 warning", "lint.line-length 3 warning", "lint.reading-speed 4 warning",
                "lint.reading-speed 5 warning", "lint.markup 6 warning",
            ])
        #expect(
            summary(.dcmp) == [
                "lint.line-length 1 warning", "lint.line-length 2 warning", "lint.line-length 3 warning",
                "lint.reading-speed 4 warning", "lint.line-length 4 warning", "lint.reading-speed 5 error",
                "lint.line-length 5 warning", "lint.line-length 5 warning", "lint.markup 6 warning",
            ])
        // The Windows-1252 file: the encoding rule and the reader's note.
        let fileLevel = CaptionLinter().lint(document).filter { Self.cue($0) == 0 }.map(\.rule)
        #expect(fileLevel == ["lint.syntax", "lint.encoding"])
    }

    @Test func everyNumberCanBeChanged() throws {
        var profile = QualityProfile.netflix
        profile.maxCharactersPerLine = 60
        profile.minDuration = nil
        profile.maxCharactersPerSecond = 50
        profile.minGapFrames = 0.5
        let issues = CaptionLinter(profile: profile, framesPerSecond: 24).lint(try Self.read("every-rule.vtt"))
        let rules = Set(issues.map(\.rule))
        #expect(!rules.contains("lint.line-length") && !rules.contains("lint.min-duration") && !rules.contains("lint.reading-speed"))
        #expect(!rules.contains("lint.min-gap"), "40 ms is more than half a frame at 24 fps")
        let at50 = CaptionLinter(profile: .netflix, framesPerSecond: 50).lint(try Self.read("every-rule.vtt"))
        #expect(!at50.contains { $0.rule == "lint.min-gap" }, "two frames at 50 fps are 40 ms")
        let disabled = CaptionLinter(disabled: ["lint.overlap", "lint.markup"]).lint(try Self.read("every-rule.vtt"))
        #expect(!disabled.contains { $0.rule == "lint.overlap" || $0.rule == "lint.markup" })
    }

    @Test func notesTurnRulesOff() throws {
        let issues = CaptionLinter().lint(try Self.read("suppressed.vtt"))
        #expect(
            Self.located(issues) == [
                "lint.line-length cue 2 line 10", "lint.min-duration cue 4 line 18",
                "lint.reading-speed cue 4 line 18",
            ])
    }

    @Test func findingsCarryTheirPlace() throws {
        let findings = CaptionLinter(mediaDuration: 32.5).lint(try Self.read("every-rule.vtt"))
        #expect(Verdict(findings: findings) == .fail)
        let finding = try #require(findings.first { $0.rule == "lint.line-length" })
        #expect(finding.line == 19 && finding.start == 18 && finding.end == 21)
        #expect(finding.message == "cue 6: line 1 has 58 characters (at most 42): break it differently")
        #expect(finding.data == .object([("cue", .integer(6)), ("measured", .number(58)), ("limit", .number(42))]))
    }
}

/// The one-pass ASCII measurement agrees with the full cue text parser on every text it accepts.
struct CueReadingTests {
    @Test(arguments: [
        "Plain words", "Two lines\nof text", "Trailing spaces   \n  leading", "It's well-known", "-- dashes -- and 'quotes'",
        "<i>italic</i> and <b>bold</b>", "<u>under</u>\n\n", "Line\n\n\nafter gaps", "   ", "", "a\tb  c",
        "<c.yellow>class</c> <v Ann>voice", "<lang en>hello</lang>", "<i>open to the end", "123 456-789",
    ]) func fastPathMatchesTheParser(text: String) {
        for format in [CaptionFormat.webvtt, .srt] {
            let cue = Cue(start: .zero, end: CaptionTime(milliseconds: 1000), text: text)
            var copy = text
            guard let fast = copy.withUTF8({ CueReading.measureASCII($0, format: format, limit: 5) }) else { continue }
            let slow = CueReading(slowly: cue, format: format, maxLineLength: 5)
            #expect(fast.lineCount == slow.lineCount, "\(format) \(text)")
            #expect(fast.readingCharacters == slow.readingCharacters, "\(format) \(text)")
            #expect(fast.words == slow.words, "\(format) \(text)")
            #expect(fast.isEmpty == slow.isEmpty, "\(format) \(text)")
            #expect(
                fast.longLines.map(\.line) == slow.longLines.map(\.line) && fast.longLines.map(\.length) == slow.longLines.map(\.length), "\(format) \(text)")
            #expect(fast.markupProblem == slow.markupProblem, "\(format) \(text)")
        }
    }

    @Test func otherTextTakesTheFullPath() {
        for text in ["Café", "&amp;", "{\\an8}top", "<ruby>漢<rt>kan</rt></ruby>", "<unknown>x</unknown>", "<i>x</b>", "a\r\nb"] {
            var copy = text
            #expect(copy.withUTF8({ CueReading.measureASCII($0, format: .webvtt, limit: 42) }) == nil, "\(text)")
        }
    }
}
