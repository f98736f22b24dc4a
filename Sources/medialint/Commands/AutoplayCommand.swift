import ArgumentParser
import Autoplay
import Checks
import Findings
import Foundation
import Library
import MediaIO
import Reports

/// `medialint autoplay PATH...`: pages whose media plays sound by itself.
struct AutoplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "autoplay",
        abstract: "Check HTML pages for media that plays sound by itself for more than 3 seconds.",
        discussion: """
            Every <audio>/<video> with an autoplay attribute (any value: autoplay="false" still autoplays) is \
            judged by the sound its media makes: the media files are decoded (each once) and their audible \
            seconds measured (above --threshold dBFS; gaps under 0.5 s bridged, bursts under 0.1 s ignored), \
            within a #t=start,end fragment when there is one; loop with any sound is endless. Muted elements, \
            media without an audio stream and digital silence pass. Profiles: wcag (WCAG 1.4.2: more than 3 s \
            fails unless the element has controls) and kwcag (Korean guideline 3.4: 3 s or more fails, controls \
            or not). Remote media is never fetched and script-driven playback, autoplaying iframes and \
            <bgsound> cannot be judged from the page: 'unverified'. Media paths that leave the checked root \
            (--root; default: the folder given, or the page's folder) are refused and never read.

            --media FILE reports a media file's own length and audible seconds.

            Exit status: 0 no failure, 1 a page fails or cannot be checked (a page, or media it points to, \
            unreadable), 2 a usage error or a path that does not exist.
            """
    )

    @Argument(help: ArgumentHelp("HTML pages, or folders of them (searched for .html and .htm files).", valueName: "path"), completion: .file())
    var paths: [String] = []

    @Option(help: ArgumentHelp("Media paths must stay inside this folder (default: the folder given, or each page's folder).", valueName: "dir"))
    var root: String?

    @Option(help: "wcag (default) or kwcag.")
    var profile: AutoplayRules.Profile = .wcag

    @Option(help: ArgumentHelp("Sound is what is above this level, in dBFS.", valueName: "dB"))
    var threshold: Double = -50

    @Option(help: ArgumentHelp("Report a media file's length and audible seconds instead of checking pages.", valueName: "file"), completion: .file())
    var media: [String] = []

    @OptionGroup var formatChoice: CheckFormatOptions

    /// `--format`, else what `-o`'s extension says, else text.
    var format: CheckFormat { formatChoice.format(writingTo: output) }

    @OptionGroup var output: OutputOptions
    @OptionGroup var verdicts: VerdictOptions

    func validate() throws {
        if paths.isEmpty, media.isEmpty { throw ValidationError("Give HTML pages or folders, or --media FILE.") }
        if !(threshold < 0) { throw ValidationError("--threshold is a level below 0 dBFS, e.g. -50.") }
        try NumberRange.check(threshold, "--threshold (dBFS)", -200...0)
    }

    func run() throws {
        let cache = AudioActivityCache(threshold: threshold)
        var results: [CheckResult] = []
        for file in media {
            results.append(Self.mediaResult(file, cache: cache))
        }
        let check = AutoplayCheck(rules: AutoplayRules(profile: profile), cache: cache)
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                results.append(CheckResult.unreadable(file: path, check: .autoplay, reason: "no such file or folder"))
                continue
            }
            if isDirectory.boolValue {
                let base = root ?? path
                let (items, problems) = LibraryScanner.scan([path], skip: { _ in false })
                // Pages, and folders, that could not be read or lead outside; media links are judged where a page plays them.
                for problem in problems where [nil, .page].contains(LibraryScanner.kind(of: problem.path)) {
                    results.append(problem.result(check: .autoplay))
                }
                for item in items where item.kind == .page { results.append(CheckResult.timed { check.run(page: item.path, root: base) }) }
            } else if !Self.isPage(path) {
                results.append(CheckResult.unreadable(file: path, check: .autoplay, reason: "not an HTML page (.html or .htm, or markup that starts like one)"))
            } else {
                results.append(CheckResult.timed { check.run(page: path, root: root ?? (path as NSString).deletingLastPathComponent.nonEmpty ?? ".") })
            }
        }
        // Checking nothing is no pass: a folder with no pages is a mistake to say, not a clean result.
        if results.isEmpty {
            throw CLIError("nothing to check: \(paths.joined(separator: ", ")) \(paths.count == 1 ? "holds" : "hold") no HTML pages (.html, .htm)")
        }
        OutputOptions.reportErrors(results.filter { !media.contains($0.file) })  // --media failures were said as they came
        try output.finish(results, format: format, verdicts: verdicts)
    }

    /// Whether the file named is a page: an `.html`/`.htm`/`.xhtml` file, or text whose first bytes are markup a page
    /// starts with (a doctype, `<html`, `<head`, `<body`, a comment or a media element); files with NUL bytes are left
    /// to the page reader (UTF-16 is read, binary data refused).
    static func isPage(_ path: String) -> Bool {
        if ["html", "htm", "xhtml"].contains((path as NSString).pathExtension.lowercased()) { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { return true }  // unreadable: the check says why
        defer { try? handle.close() }
        let bytes = (try? handle.read(upToCount: 1024)) ?? Data()
        if bytes.contains(0) { return true }  // UTF-16, or binary: the page reader says which
        let head = String(decoding: bytes, as: UTF8.self).lowercased()
        let start = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        return ["<!doctype html", "<html", "<head", "<body", "<video", "<audio", "<!--"].contains { start.hasPrefix($0) }
    }

    /// `--media FILE`: length, audible seconds, first and last audible time; a file that cannot be read is said at once.
    static func mediaResult(_ path: String, cache: AudioActivityCache) -> CheckResult {
        let activity = cache.activity(of: URL(fileURLWithPath: path).standardizedFileURL.path)
        if case .failure(let error) = activity { Console.error(error.description) }
        return AutoplayCheck.mediaResult(path, activity: activity)
    }
}

extension AutoplayRules.Profile: ExpressibleByArgument {}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
