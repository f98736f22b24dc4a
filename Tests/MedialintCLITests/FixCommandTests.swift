import Foundation
import TestSupport
import Testing

/// `lint --fix` and `check --fix`: the caption file rewritten atomically with every change listed, the original kept
/// when asked, the result passing the rules fixed with every word kept; a file that needs nothing left as it is.
@Suite struct FixCommandTests {
    static let srt = """
        1
        00:00:01,000 --> 00:00:03,000
        An overlap: this cue ends late.

        2
        00:00:02,500 --> 00:00:04,000
        <i>This single line is much longer</i> than forty-two characters.

        3
        00:00:04,040 --> 00:00:06,000
        A gap of one frame before this one.

        """

    static func words(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { !$0.contains("-->") && $0.contains(where: \.isLetter) }.flatMap { $0.split(separator: " ") }
    }

    @Test func lintFixRewritesTheFile() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("talk.srt")
        try Self.srt.write(to: file, atomically: true, encoding: .utf8)
        let run = try Medialint.run(["lint", "talk.srt", "--fix", "--backup", ".orig", "--format", "compact"], in: directory)
        #expect(
            run.stderr.split(separator: "\n").filter { $0.contains("fixed cue") } == [
                "medialint: note: talk.srt: fixed cue 1: end 00:00:03.000 → 00:00:02.416: it overlapped cue 2 [lint.overlap]",
                "medialint: note: talk.srt: fixed cue 2: lines broken again to at most 42 characters (2 lines) [lint.line-length]",
                "medialint: note: talk.srt: fixed cue 2: end 00:00:04.000 → 00:00:03.956: leaving the profile's gap before cue 3 [lint.min-gap]",
            ])
        let fixed = try String(contentsOf: file, encoding: .utf8)
        #expect(fixed.contains("00:00:01,000 --> 00:00:02,416") && fixed.contains("<i>This single line is much longer</i>\nthan forty-two characters."))
        #expect(Self.words(fixed) == Self.words(Self.srt), "every word kept")
        #expect(try String(contentsOf: directory.appendingPathComponent("talk.srt.orig"), encoding: .utf8) == Self.srt, "the original kept")
        // The report is of the fixed file, and lint finds nothing of what was fixed.
        #expect(!run.stdout.contains("lint.overlap") && !run.stdout.contains("lint.line-length") && !run.stdout.contains("lint.min-gap"))
        let again = try Medialint.run(["lint", "talk.srt", "--format", "compact"], in: directory)
        #expect(!again.stdout.contains("lint.overlap") && !again.stdout.contains("lint.line-length") && !again.stdout.contains("lint.min-gap"))
        // Nothing to fix: the file stays the same file.
        let before = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int
        let quiet = try Medialint.run(["lint", "talk.srt", "--fix"], in: directory)
        #expect(!quiet.stderr.contains("fixed cue"))
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int == before)
        #expect(try Medialint.run(["lint", "talk.srt", "--backup", ".orig"], in: directory).status == 2, "--backup goes with --fix")
    }

    @Test func checkFixFixesCaptionFilesOfALibrary() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("library"), withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("library/talk.srt")
        try Self.srt.write(to: file, atomically: true, encoding: .utf8)
        let run = try Medialint.run(["check", "library", "--fix", "--no-store", "--format", "compact"], in: directory)
        #expect(run.stderr.contains("library/talk.srt: fixed cue 1: end 00:00:03.000 → 00:00:02.416"))
        #expect(!run.stdout.contains("lint.overlap"))
        #expect(try String(contentsOf: file, encoding: .utf8).contains("00:00:01,000 --> 00:00:02,416"))
    }
}
