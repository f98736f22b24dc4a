import ArgumentParser
import Checks
import Findings
import Foundation
import MediaIO
import Streaming

/// `medialint sync MEDIA [CAPTIONS] [--fix OUT]`: caption timing against the speech in the media.
struct SyncCommand: ParsableCommand {
    @Argument(help: ArgumentHelp("The video or audio file (with --reference: the caption file to align).", valueName: "media"), completion: .file())
    var media: String

    @Argument(help: ArgumentHelp("The caption file (default: the media's sidecar files and embedded tracks).", valueName: "captions"), completion: .file())
    var captions: String?

    @OptionGroup var fixing: SyncFixOptions

    @Option(
        help: ArgumentHelp(
            "Align the captions to this caption file instead of the media's speech (a translation to its original): sync --reference ORIGINAL.srt CAPTIONS.",
            valueName: "captions"), completion: .file())
    var reference: String?

    @Option(help: ArgumentHelp("Seconds off before a warning, and optionally before an error: 0.1 or 0.1,0.25 (the defaults).", valueName: "warn[,fail]"))
    var tolerance: Tolerance?

    @Option(help: ArgumentHelp("The audio stream to listen to (default: the main one).", valueName: "index"))
    var audioStream: Int?

    @OptionGroup var formatChoice: CheckFormatOptions

    /// `--format`, else what `-o`'s extension says, else text.
    var format: CheckFormat { formatChoice.format(writingTo: output) }

    @OptionGroup var settings: ConfigOptions
    @OptionGroup var captionInput: CaptionInputOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var verdicts: VerdictOptions
    @OptionGroup var playlists: PlaylistOptions

    func validate() throws {
        if captions != nil, captionInput.track != nil {
            throw ValidationError("Give a caption file or --track, not both.")
        }
        if reference != nil {
            if captions != nil { throw ValidationError("With --reference, give one caption file: sync --reference ORIGINAL.srt CAPTIONS.") }
            if captionInput.track != nil || audioStream != nil {
                throw ValidationError("--reference aligns two caption files: --track and --audio-stream do not apply.")
            }
        }
        if fixing.rewrite.inPlace, captionInput.track != nil {
            throw ValidationError("--in-place cannot rewrite an embedded track; write the corrected captions with --fix OUT.")
        }
    }

    func run() throws {
        if let reference { return try align(to: reference) }
        if (media as NSString).pathExtension.lowercased() == "m3u8", captions == nil { return try syncPackage() }
        playlists.apply(to: [media])
        let check = try makeCheck()
        // --fix never writes over an input, whatever name or link it is given by: refused before any work.
        let inputs = [media] + (captions.map { [$0] } ?? [])
        try output.refuse(inputs: inputs)
        if let fix = fixing.fix { try OutputStream.refuseInputs(fix, inputs) }
        // Everything is read before anything is written: the media's description, the captions, the speech.
        let info: MediaInfo
        let speech: MediaSpeech?
        let sources: [CaptionSource]
        do {
            info = try MediaProbe.probe(media, closedCaptions: true)
            sources = try captionInput.sources(of: media, info: info, file: captions, quietNotes: fixing.rewrite.inPlace)
            try output.refuse(inputs: sources.compactMap(\.file))  // the sidecars found are inputs too
            if fixing.isRequested { try fixing.refuse(sources, of: media) }
            speech = try detectSpeech(info)
        } catch let error as MediaError {
            // A stream asked for that is not there is a usage error; a file that cannot be read is a failing result.
            if error.kind == .noSuchStream { throw CLIError(error.description) }
            Console.error(error.description)
            return try output.finish(
                settings.applyRules(to: [CheckResult.unreadable(file: media, check: .sync, reason: error.reason)]), format: format, verdicts: verdicts)
        }
        var results = sources.isEmpty ? [CaptionPresence.resultWithoutCaptions(media, speech: speech)] : []
        var fixWritten = false
        for source in sources {
            let outcome = check.timedCheck(path: media, media: info, speech: speech, source: source)
            guard fixing.isRequested, let document = source.document, let file = fixing.fix ?? source.file else {
                results.append(outcome.result)
                continue
            }
            // What the fix corrected is reported as fixed: the verdict shown is that of the corrected captions.
            let fixed = try fixing.write(outcome, document: document, to: file, input: captions ?? media)
            results.append(fixed ?? outcome.result)
            fixWritten = fixWritten || fixed != nil
        }
        // A fix that could not be written fails the run.
        try output.finish(settings.applyRules(to: results), format: format, verdicts: verdicts, failed: fixing.isRequested && !fixWritten)
    }

    /// An HLS package: each subtitle rendition against the speech of the package's audio (segments read inside the
    /// package's folder only). A fix is written for one rendition with --fix OUT.
    private func syncPackage() throws {
        let check = try makeCheck()
        try output.refuse(inputs: [media])
        if fixing.rewrite.inPlace { throw CLIError("--in-place cannot rewrite an HLS package's segments; write the corrected captions with --fix OUT") }
        let package = try HLSPackage.load(media)
        guard case .multivariant = package.playlist else {
            throw CLIError("\(media) is a media playlist: give the package's multivariant playlist, whose video places the subtitles")
        }
        let timelines = package.subtitleTimelines()
        let outcomes = package.readDeadline.bind { check.check(package: package, timelines: timelines) }
        guard let fix = fixing.fix, !outcomes.isEmpty else {
            let results = outcomes.isEmpty ? [SyncCheck.withoutSubtitles(package: media)] : outcomes.map(\.result)
            return try output.finish(settings.applyRules(to: results), format: format, verdicts: verdicts)
        }
        guard outcomes.count == 1 else { throw CLIError("--fix needs one subtitle rendition; \(media) has \(outcomes.count)") }
        try OutputStream.refuseInputs(fix, [media])
        let fixed = try fixing.write(outcomes[0], document: timelines[0].document, to: fix, input: media)
        try output.finish(settings.applyRules(to: [fixed ?? outcomes[0].result]), format: format, verdicts: verdicts, failed: fixed == nil)
    }

    /// `--reference`: the caption file (the first argument) aligned to another caption file, without audio.
    private func align(to reference: String) throws {
        let check = try makeCheck()
        let inputs = [media, reference]
        try output.refuse(inputs: inputs)
        if let fix = fixing.fix { try OutputStream.refuseInputs(fix, inputs) }
        let original = try captionInput.read(reference)
        Diagnostics.print(original.diagnostics, file: reference)
        let document = try captionInput.read(media)
        // In place, the reader's notes (what the cue model leaves out) are not the file's: the file keeps it.
        Diagnostics.print(document.diagnostics.filter { !fixing.rewrite.inPlace || $0.severity != .info }, file: media)
        // The result is the caption file's: it is what fails, and what a fix rewrites.
        let outcome = check.check(reference: original, path: media, captions: document, source: media)
        let fixed = fixing.isRequested ? try fixing.write(outcome, document: document, to: fixing.fix ?? media, input: media) : outcome.result
        try output.finish(settings.applyRules(to: [fixed ?? outcome.result]), format: format, verdicts: verdicts, failed: fixed == nil)
    }

    /// Tolerances: defaults, then the `sync` settings, then the option.
    private func makeCheck() throws -> SyncCheck {
        try SyncSettings.check(settings.load(for: media).section("sync"), tolerance: tolerance)
    }

    /// The speech of the chosen audio stream; nil when the media has no audio.
    private func detectSpeech(_ info: MediaInfo) throws -> MediaSpeech? {
        guard audioStream != nil || !info.streams(of: .audio).isEmpty else { return nil }
        let progress = ProgressLine(label: "sync \(media)")
        defer { progress.finish() }
        return try MediaSpeech.detect(path: media, streamIndex: audioStream) { progress.update(done: $0, total: info.duration) }
    }
}
