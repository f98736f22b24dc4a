import ArgumentParser
import CaptionQuality
import Captions
import Checks
import Findings
import Foundation
import Library
import MediaIO
import Reports

/// `medialint lint CAPTIONS...`: caption quality rules.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check caption files against quality rules (reading speed, line length, durations, gaps …).",
        discussion: """
            Profiles: netflix (default; 42 characters a line, 2 lines, 5/6 s to 7 s, 20 characters a second, \
            2 frames between cues), bbc (37 characters, 2 lines, 180 words a minute), dcmp (32 characters, \
            2 lines, at least 2 s, 160 words a minute, 225 at most). Every number can be changed with the \
            options below or in the 'lint' section of .medialint.yml. Always checked: overlaps, empty cues, \
            zero or negative durations, unbalanced markup, text that is not UTF-8, and (with --media) cues \
            after the media's end.

            A WebVTT file can turn rules off for some of its cues with NOTE comments: \
            'NOTE medialint-disable lint.line-length' (from there on), 'NOTE medialint-enable …', \
            'NOTE medialint-disable-next lint.min-duration' (the next cue only); without rule ids, every rule. \
            --disable turns rules off everywhere.

            --fix rewrites each caption file (atomically, in its own format and encoding, every byte it does not fix \
            kept) with what can be fixed without touching a word: an overlap ends the earlier cue before the next \
            (with the profile's gap when there is room), a gap too short is opened to the profile's or closed, a cue \
            too short to read is lengthened within the gap before the next, lines too long are broken again (the \
            fewest lines, as even as they go), and a cue two lines cannot hold is split in two (SRT, WebVTT). Every \
            change is listed on standard error; the report is of the fixed file.

            Frame-based rules use --fps, else the media's frame rate (--media), else 24. \
            Formats: text, json, jsonl, sarif (SARIF 2.1.0 for GitHub code scanning), junit. \
            Exit status: 0 no errors, 1 a rule at error severity or a file that cannot be read, 2 a usage \
            error or a file that does not exist (--strict: warnings fail too).
            """
    )

    @Argument(help: ArgumentHelp("Caption files (.vtt, .srt, .scc, .ttml, .smi, .ass/.ssa, .sbv).", valueName: "captions"), completion: .file())
    var captions: [String]

    @Option(
        help: ArgumentHelp("Rule numbers to start from: \(QualityProfile.names.joined(separator: ", ")).", valueName: "profile"),
        completion: .list(QualityProfile.names))
    var profile: String?

    @Option(help: ArgumentHelp("The video the captions belong to: its frame rate and duration.", valueName: "file"), completion: .file())
    var media: String?

    @Option(help: ArgumentHelp("Frame rate for frame-based rules (default: the media's, else 24).", valueName: "fps"))
    var fps: Double?

    @Option(parsing: .singleValue, help: ArgumentHelp("Turn a rule off (repeatable, or comma-separated).", valueName: "rule"))
    var disable: [String] = []

    @Option(help: ArgumentHelp("Most characters on a line.", valueName: "n"))
    var maxCharsPerLine: Int?
    @Option(help: ArgumentHelp("Most lines in a cue.", valueName: "n"))
    var maxLines: Int?
    @Option(help: ArgumentHelp("Shortest cue, in seconds.", valueName: "s"))
    var minDuration: Double?
    @Option(help: ArgumentHelp("Longest cue, in seconds.", valueName: "s"))
    var maxDuration: Double?
    @Option(help: ArgumentHelp("Most characters a second.", valueName: "n"))
    var maxCps: Double?
    @Option(help: ArgumentHelp("Most words a minute.", valueName: "n"))
    var maxWpm: Double?
    @Option(help: ArgumentHelp("Shortest gap between cues, in frames.", valueName: "n"))
    var minGapFrames: Double?

    @Flag(help: "Fix overlaps, too-short cues and gaps, and long lines, rewriting each caption file (atomically); every change is listed.")
    var fix = false

    @Option(help: ArgumentHelp("With --fix: keep each original as FILE followed by SUFFIX (e.g. .orig).", valueName: "suffix"))
    var backup: String?

    @OptionGroup var formatChoice: CheckFormatOptions

    /// `--format`, else what `-o`'s extension says, else text.
    var format: CheckFormat { formatChoice.format(writingTo: output) }

    @OptionGroup var settings: ConfigOptions
    @OptionGroup var input: CaptionInputOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var verdicts: VerdictOptions

    func validate() throws {
        if let profile, QualityProfile.named(profile) == nil {
            throw ValidationError("Unknown profile '\(profile)'; choose one of \(QualityProfile.names.joined(separator: ", ")).")
        }
        if let fps, !(fps > 0) { throw ValidationError("--fps must be positive.") }
        let known = Set(CaptionLinter.rules.map(\.id))
        for rule in disable.flatMap({ $0.split(separator: ",") }) where !known.contains(String(rule)) {
            throw ValidationError("Unknown rule '\(rule)'; the rules are \(known.sorted().joined(separator: ", ")).")
        }
        if fix, input.track != nil { throw ValidationError("--fix rewrites caption files, not a media file's track.") }
        if backup != nil, !fix { throw ValidationError("--backup goes with --fix.") }
        if let backup, backup.isEmpty || backup.contains("/") { throw ValidationError("--backup takes a suffix such as .orig (no '/').") }
    }

    func run() throws {
        // Each file's settings (the .medialint.yml files from its folder up), all read before any work.
        let discovery = settings.discovery()
        let mediaInfo = try media.map { try MediaProbe.probe($0) }
        let linters = try captions.map { try makeLinter(discovery.settings(for: $0), media: mediaInfo) }
        // Refused once the settings files are known too.
        try output.refuse(inputs: captions + (media.map { [$0] } ?? []))
        var results: [CheckResult] = []
        for (path, linter) in zip(captions, linters) {
            do {
                var document = try input.read(path)
                if fix { document = try CaptionFixing.fixInPlace(path, document, linter: linter, backup: backup) }
                // Findings streamed into the report, a window at a time: a million of them never all in memory.
                results.append(CheckResult.timed { LintCheck(linter: linter).runStreaming(document, path: path) })
            } catch let error as CLIError {
                Console.error(error.message)
                results.append(CheckResult.unreadable(file: path, check: .lint, reason: error.message, rule: .captionsParse))
            }
        }
        try output.finish(settings.applyRules(to: results), format: format, verdicts: verdicts)
    }

    /// The profile and the `lint` settings (LintSettings), then the options; the frame rate and duration from
    /// `--fps` and `--media`.
    private func makeLinter(_ config: ConfigFile, media: MediaInfo?) throws -> CaptionLinter {
        var lint = try LintSettings(config.section("lint"), profile: profile)
        if let maxCharsPerLine { lint.rules.maxCharactersPerLine = maxCharsPerLine }
        if let maxLines { lint.rules.maxLines = maxLines }
        if let minDuration { lint.rules.minDuration = minDuration }
        if let maxDuration { lint.rules.maxDuration = maxDuration }
        if let maxCps { lint.rules.maxCharactersPerSecond = maxCps }
        if let maxWpm { lint.rules.maxWordsPerMinute = maxWpm }
        if let minGapFrames { lint.rules.minGapFrames = minGapFrames }
        lint.disabled.formUnion(disable.flatMap { $0.split(separator: ",").map(String.init) })
        if let fps { lint.framesPerSecond = fps }
        if lint.framesPerSecond == nil { lint.framesPerSecond = media?.streams(of: .video).first?.video?.fps }
        return try lint.linter(mediaDuration: media?.duration)
    }
}
