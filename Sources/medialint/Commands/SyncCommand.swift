import ArgumentParser
import Captions
import Checks
import Findings
import Foundation
import Library
import MediaIO
import Reports
import Streaming

/// `medialint sync MEDIA [CAPTIONS] [--fix OUT]`: caption timing against the speech in the media.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Check caption timing against the speech in the media, and fix it.",
        discussion: """
            With no CAPTIONS, every caption source of the media is checked: the sidecar files next to it \
            (NAME.vtt, NAME.srt, NAME.en.srt, NAME.en-US.vtt …) and its embedded text subtitle tracks. The audio \
            is decoded once (16 kHz mono) and speech found by its level and by sounding like speech (voiced, with \
            syllabic rhythm and a gliding pitch: music and effects are not speech); the captions are fitted as \
            media time = scale × caption time + offset (common frame-rate ratios and any stretch within ±5%, \
            offsets within ±60 s), split into parts where the offset changes, then checked cue by cue. Cues that \
            describe sound ([MUSIC], ♪, (thunder)) make what sounds under them expected.

            Findings: sync.offset and sync.drift (a warning beyond the tolerance, an error beyond the fail \
            tolerance), sync.break (the offset changes part-way: where, and both offsets), sync.cue-after-end, \
            sync.uncaptioned-speech, sync.cue-over-silence, sync.cue-offset (a single cue off its own speech \
            onset); captions.missing when the media has speech and no captions at all. The verdict is \
            'unverified' when the evidence is too weak to judge the timing (no audio, fewer than 3 cues with \
            dialogue, too few cues on speech).

            --fix OUT writes the captions with corrected times (atomically; everything but the times \
            unchanged), each part by its own offset; --in-place rewrites the caption file itself (--backup .orig \
            keeps the original); --snap also moves each cue onto its own speech onset (within 1 s, never past the \
            cues around it). What was fixed is reported as fixed, and the verdict and exit status are those of \
            the corrected captions. Examples:
              medialint sync talk.mp4                      every caption source of talk.mp4
              medialint sync talk.mp4 talk.en.srt --fix talk.fixed.srt
              medialint sync talk.mp4 talk.en.srt --in-place --backup .orig
              medialint sync show.mp4 show.en.srt --fix show.retimed.srt --snap
              medialint sync film.mkv --track 3 --format json
              medialint sync --reference film.en.srt film.fr.srt --fix film.fr.synced.srt

            --reference ORIGINAL aligns a caption file to another one already in time (a translation to the \
            original it was made from) without audio: the original's dialogue cues stand for the speech.

            Exit status: 0 in sync (or only warnings, or unverified; also when the offset and drift were \
            fixed), 1 out of sync or unreadable, 2 a usage error or a file that does not exist (--strict: \
            warnings fail too).
            """
    )

    @Argument(help: ArgumentHelp("The video or audio file (with --reference: the caption file to align).", valueName: "media"), completion: .file())
    var media: String

    @Argument(help: ArgumentHelp("The caption file (default: the media's sidecar files and embedded tracks).", valueName: "captions"), completion: .file())
    var captions: String?

    @Option(help: ArgumentHelp("Write the corrected captions here (format from the extension, else the source's).", valueName: "out"), completion: .file())
    var fix: String?

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

    @Flag(
        help: ArgumentHelp(
            "With --fix or --in-place, also move each cue onto the start of its own speech (within 1 s, never past the cues around it), as a person retiming captions would."
        ))
    var snap = false

    @OptionGroup var rewrite: InPlaceOptions
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
        if fix != nil, rewrite.inPlace { throw ValidationError("Give either --fix OUT or --in-place, not both.") }
        if snap, fix == nil, !rewrite.inPlace { throw ValidationError("--snap moves cues when fixing: give --fix OUT or --in-place too.") }
        if rewrite.inPlace, captionInput.track != nil {
            throw ValidationError("--in-place cannot rewrite an embedded track; write the corrected captions with --fix OUT.")
        }
    }

    /// Where corrected captions go, if anywhere: `--fix OUT`, or the caption file itself with `--in-place`.
    private var fixing: Bool { fix != nil || rewrite.inPlace }

    func run() throws {
        if let reference { return try align(to: reference) }
        if (media as NSString).pathExtension.lowercased() == "m3u8", captions == nil { return try syncPackage() }
        playlists.apply(to: [media])
        let check = try makeCheck()
        // --fix never writes over an input, whatever name or link it is given by: refused before any work.
        let inputs = [media] + (captions.map { [$0] } ?? [])
        try output.refuse(inputs: inputs)
        if let fix { try OutputStream.refuseInputs(fix, inputs) }
        // Everything is read before anything is written: the media's description, the captions, the speech.
        let info: MediaInfo
        let speech: MediaSpeech?
        let sources: [CaptionSource]
        do {
            info = try MediaProbe.probe(media, closedCaptions: true)
            sources = try captionInput.sources(of: media, info: info, file: captions)
            if fixing { try refuseFixing(sources) }
            speech = try detectSpeech(info)
        } catch let error as MediaError {
            // A stream asked for that is not there is a usage error; a file that cannot be read is a failing result.
            if error.kind == .noSuchStream { throw CLIError(error.description) }
            Console.error(error.description)
            return try output.finish([CheckResult.unreadable(file: media, check: .sync, reason: error.reason)], format: format, verdicts: verdicts)
        }
        var results = sources.isEmpty ? [CaptionPresence.resultWithoutCaptions(media, speech: speech)] : []
        var fixWritten = false
        for source in sources {
            let outcome = check.timedCheck(path: media, media: info, speech: speech, source: source)
            guard fixing, let document = source.document, let file = fix ?? source.file else {
                results.append(outcome.result)
                continue
            }
            // What the fix corrected is reported as fixed: the verdict shown is that of the corrected captions.
            let fixed = try write(outcome, document: document, to: file)
            results.append(fixed ?? outcome.result)
            fixWritten = fixWritten || fixed != nil
        }
        // A fix that could not be written fails the run.
        try output.finish(results, format: format, verdicts: verdicts, failed: fixing && !fixWritten)
    }

    /// An HLS package: each subtitle rendition against the speech of the package's audio (segments read inside the
    /// package's folder only). A fix is written for one rendition with --fix OUT.
    private func syncPackage() throws {
        let check = try makeCheck()
        try output.refuse(inputs: [media])
        if rewrite.inPlace { throw CLIError("--in-place cannot rewrite an HLS package's segments; write the corrected captions with --fix OUT") }
        let package = try HLSPackage.load(media)
        guard case .multivariant = package.playlist else {
            throw CLIError("\(media) is a media playlist: give the package's multivariant playlist, whose video places the subtitles")
        }
        let timelines = package.subtitleTimelines()
        let outcomes = check.check(package: package, timelines: timelines)
        guard let fix, !outcomes.isEmpty else {
            let results = outcomes.isEmpty ? [SyncCheck.withoutSubtitles(package: media)] : outcomes.map(\.result)
            return try output.finish(results, format: format, verdicts: verdicts)
        }
        guard outcomes.count == 1 else { throw CLIError("--fix needs one subtitle rendition; \(media) has \(outcomes.count)") }
        try OutputStream.refuseInputs(fix, [media])
        let fixed = try write(outcomes[0], document: timelines[0].document, to: fix)
        try output.finish([fixed ?? outcomes[0].result], format: format, verdicts: verdicts, failed: fixed == nil)
    }

    /// `--reference`: the caption file (the first argument) aligned to another caption file, without audio.
    private func align(to reference: String) throws {
        let check = try makeCheck()
        let inputs = [media, reference]
        try output.refuse(inputs: inputs)
        if let fix { try OutputStream.refuseInputs(fix, inputs) }
        let original = try captionInput.read(reference)
        Diagnostics.print(original.diagnostics, file: reference)
        let document = try captionInput.read(media)
        Diagnostics.print(document.diagnostics, file: media)
        // The result is the caption file's: it is what fails, and what a fix rewrites.
        let outcome = check.check(reference: original, path: media, captions: document, source: media)
        let fixed = fixing ? try write(outcome, document: document, to: fix ?? media) : outcome.result
        try output.finish([fixed ?? outcome.result], format: format, verdicts: verdicts, failed: fixed == nil)
    }

    // MARK: - Pieces

    /// Tolerances: defaults, then the `sync` settings, then the option.
    private func makeCheck() throws -> SyncCheck {
        try SyncSettings.check(settings.load(for: media).section("sync"), tolerance: tolerance)
    }

    /// A fix needs one caption source, and `--in-place` a caption file.
    private func refuseFixing(_ sources: [CaptionSource]) throws {
        let option = fix == nil ? "--in-place" : "--fix"
        guard sources.count == 1 else {
            let found = sources.isEmpty ? "none" : "\(sources.count): " + sources.map(\.label).joined(separator: ", ")
            throw CLIError("\(option) needs one caption source; \(media) has \(found); name one")
        }
        if let fix, let file = sources[0].file { try OutputStream.refuseInputs(fix, [file]) }
        if rewrite.inPlace, sources[0].file == nil {
            throw CLIError("--in-place rewrites a caption file; the captions of \(media) are \(sources[0].label): write them with --fix OUT")
        }
    }

    /// The speech of the chosen audio stream; nil when the media has no audio.
    private func detectSpeech(_ info: MediaInfo) throws -> MediaSpeech? {
        guard audioStream != nil || !info.streams(of: .audio).isEmpty else { return nil }
        let progress = ProgressLine(label: "sync \(media)")
        defer { progress.finish() }
        return try MediaSpeech.detect(path: media, streamIndex: audioStream) { progress.update(done: $0, total: info.duration) }
    }

    /// Writes the corrected captions for `--fix` or `--in-place`; returns the result with what the correction resolves
    /// marked as fixed, or nil when nothing could be written.
    private func write(_ outcome: SyncCheck.Outcome, document: CaptionDocument, to path: String) throws -> CheckResult? {
        guard let correction = outcome.correction(of: document, snap: snap) else {
            Console.error("\(path): not written: the timing could not be verified")
            return nil
        }
        if correction.changed {
            Console.note("\(path): \(correction.summary)")
        } else if rewrite.inPlace {
            Console.note("\(path): the timing is within the tolerance; left as it is")
            return outcome.result
        } else {
            Console.note("\(path): the timing is within the tolerance; written unchanged")
        }
        let format = rewrite.inPlace ? document.format : CaptionFormat(pathExtension: (path as NSString).pathExtension) ?? document.format
        let written = try CaptionOutput.write(correction.document, as: format, to: path, input: captions ?? media, inPlace: rewrite.inPlace ? rewrite : nil)
        Diagnostics.print(correction.diagnostics + written, file: path)
        return correction.result(writtenTo: path)
    }
}
