import Foundation
import Testing

/// The terminal, as people see it: the progress line is cleared before any other line is written to it (JSON Lines
/// on standard output, messages on standard error), `--quiet` leaves only errors and warnings, `FORCE_COLOR` and
/// `CLICOLOR_FORCE` colour what is not a terminal (and `NO_COLOR` still wins), a mistyped command gets a suggestion.
@Suite struct TerminalTests {
    /// What a terminal shows of `raw`, line by line: each line's text after its last carriage return, without the
    /// erase-line sequence.
    static func shown(_ raw: String) -> [String] {
        raw.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map { line in
            var shown = String(line.split(separator: "\r", omittingEmptySubsequences: false).last ?? "")
            if shown.hasPrefix("\u{1B}[2K") { shown.removeFirst(4) }
            return shown
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) gives the command a terminal"))
    func progressNeverSharesALineWithOutput() throws {
        let command = [
            Medialint.executable.path, "check", "Media/flashing.mp4", "Media/speech.srt", "Media/speech.mp4", "--no-store", "--format", "jsonl", "--jobs", "1",
        ]
        let result = try Medialint.runTool("/usr/bin/script", ["-qfec", command.joined(separator: " "), "/dev/null"], in: Medialint.root)
        #expect(result.stdout.contains("check ["), "a progress line was drawn")
        let lines = Self.shown(result.stdout).filter { !$0.isEmpty && !$0.hasPrefix("check [") }
        #expect(lines.count == 9, "seven results, the summary in words, the summary record: \(lines)")
        for line in lines where line.hasPrefix("{") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)")
        }
        #expect(lines.contains("3 files · 7 results: 5 pass, 1 warn, 1 fail"))
    }

    /// In a 40-column terminal every progress line drawn fits in 39 columns: none wraps, so none is left behind.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) gives the command a terminal"))
    func progressFitsANarrowTerminal() throws {
        let command = [Medialint.executable.path, "check", "Media/flashing.mp4", "Media/speech.srt", "Media/speech.mp4", "--no-store", "--jobs", "1"]
        let result = try Medialint.runTool("/usr/bin/script", ["-qfec", "stty cols 40; " + command.joined(separator: " "), "/dev/null"], in: Medialint.root)
        let draws = result.stdout.split(separator: "\r").map { $0.replacingOccurrences(of: "\u{1B}[2K", with: "") }.filter { $0.hasPrefix("check") }
        #expect(!draws.isEmpty, "a progress line was drawn")
        for draw in draws { #expect(draw.count <= 39, "\(draw.count): \(draw)") }
    }

    @Test func quietColourAndSuggestions() throws {
        let quiet = try Medialint.run(["check", "Media/speech.srt", "--no-store", "--quiet"])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty && quiet.stdout.hasPrefix("Media/speech.srt  WARN  lint"))
        // (An empty NO_COLOR is no NO_COLOR: the test runner's own is set aside.)
        let forced = try Medialint.run(["lint", "Media/speech.srt"], environment: ["FORCE_COLOR": "1", "NO_COLOR": ""])
        #expect(forced.stdout.contains("\u{1B}["), "coloured though not a terminal")
        #expect(try Medialint.run(["lint", "Media/speech.srt"], environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": ""]).stdout.contains("\u{1B}["))
        #expect(!(try Medialint.run(["lint", "Media/speech.srt"], environment: ["FORCE_COLOR": "0", "NO_COLOR": ""]).stdout.contains("\u{1B}[")))
        #expect(!(try Medialint.run(["lint", "Media/speech.srt"], environment: ["FORCE_COLOR": "1", "NO_COLOR": "1"]).stdout.contains("\u{1B}[")))
        let typo = try Medialint.run(["chek", "Media"])
        #expect(typo.status == 2 && typo.stderr == "medialint: error: unknown command 'chek': did you mean 'check'? (medialint --help)\n")
        let unknown = try Medialint.run(["frobnicate"])
        #expect(unknown.status == 2 && unknown.stderr.contains("the commands are check, report, flash, sync"))
    }
}

/// Shell completions complete file paths where a command takes files, and profile names where it takes a profile.
@Suite struct CompletionTests {
    @Test func bashCompletesPathsAndProfiles() throws {
        let script = CommandLineParsing.completionScript(.bash)
        /// The completion a bash function gives after `option` (its case branch).
        func completion(after option: String, in function: String) -> String? {
            guard let body = script.components(separatedBy: "\(function)() {").dropFirst().first?.components(separatedBy: "\n}\n").first,
                let branch = body.components(separatedBy: "'\(option)'").dropFirst().first,
                let close = branch.firstIndex(of: ")")
            else { return nil }
            return branch[branch.index(after: close)...].components(separatedBy: "return").first?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(
            completion(after: "--flash-profile", in: "_medialint_check") == "__medialint_add_completions -W 'wcag'$'\\n''wcag-aaa'$'\\n''bt1702'$'\\n''kwcag'")
        #expect(completion(after: "--lint-profile", in: "_medialint_check") == "__medialint_add_completions -W 'netflix'$'\\n''bbc'$'\\n''dcmp'")
        #expect(completion(after: "--profile", in: "_medialint_lint") == "__medialint_add_completions -W 'netflix'$'\\n''bbc'$'\\n''dcmp'")
        for (option, function) in [("--config", "_medialint_check"), ("--db", "_medialint_check"), ("-o", "_medialint_flash"), ("--fix", "_medialint_sync")] {
            #expect(completion(after: option, in: function) == "__medialint_add_completions -f", "\(function) \(option)")
        }
        // The paths themselves (positional arguments) complete as files too.
        let check = try #require(script.components(separatedBy: "_medialint_check() {").dropFirst().first?.components(separatedBy: "\n}\n").first)
        #expect(check.contains("__medialint_add_completions -f"))
    }
}
