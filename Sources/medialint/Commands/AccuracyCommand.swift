import ArgumentParser
import Captions
import Checks
import Findings
import Foundation
import MediaIO
import Streaming

/// `medialint accuracy MEDIA [CAPTIONS]`: whether the captions say what is spoken.
struct AccuracyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accuracy",
        abstract: "Check that the captions' words are what is spoken in the media.",
        discussion: """
            The captions are first put on the speech (as 'medialint sync' finds their timing); then each caption's words \
            are forced onto the audio of its time with PocketSphinx's US English model, and how well they fit is judged \
            against how well the programme's other captions fit theirs. A caption whose words cannot be fitted, or fit \
            far worse, is accuracy.wrong-text (an error): another programme's text, a neighbouring caption's; one whose \
            words fit but for one is accuracy.words-unmatched (a warning). A caption whose words are found within 3 s \
            of it but well away from its time (more than 0.5 s before it appears, 1 s after) is sync.word-offset. \
            Captions whose text fits no better than other captions' text fits the same audio are wrong as a whole \
            (another episode's, or a translation of speech in another language). For an HLS package, give the \
            multivariant playlist alone: each subtitle rendition is checked against its audio. \
            Captions that describe sounds or songs, \
            captions in another language and captions under music or noise too loud are not verified \
            (accuracy.unverifiable); words the dictionary lacks are pronounced by espeak-ng. \
            The JSON report has every caption's words and where they were found; --words writes them as WebVTT with a \
            timestamp before each word.
            """)

    @Argument(help: ArgumentHelp("The video or audio file, or an HLS package's multivariant playlist (.m3u8).", valueName: "media"), completion: .file())
    var media: String

    @Argument(help: ArgumentHelp("The caption file (default: the media's sidecar files and embedded tracks).", valueName: "captions"), completion: .file())
    var captions: String?

    @Option(help: ArgumentHelp("The audio stream to listen to (default: the main one).", valueName: "index"))
    var audioStream: Int?

    @Option(help: ArgumentHelp("The captions' language when the file does not say it (BCP 47, e.g. en).", valueName: "tag"))
    var language: String?

    @Option(
        help: ArgumentHelp("Write the captions' words with their times to this WebVTT file (a timestamp tag before each word).", valueName: "file"),
        completion: .file())
    var words: String?

    @OptionGroup var formatChoice: CheckFormatOptions
    var format: CheckFormat { formatChoice.format(writingTo: output) }

    @OptionGroup var settings: ConfigOptions
    @OptionGroup var captionInput: CaptionInputOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var verdicts: VerdictOptions

    func validate() throws {
        if captions != nil, captionInput.track != nil { throw ValidationError("Give a caption file or --track, not both.") }
        if isPackage, captions != nil || captionInput.track != nil || audioStream != nil {
            throw ValidationError("An HLS package's captions are its subtitle renditions, heard against its own audio: give the playlist alone.")
        }
    }

    private var isPackage: Bool { (media as NSString).pathExtension.lowercased() == "m3u8" }

    func run() throws {
        if isPackage { return try checkPackage() }
        let inputs = [media] + (captions.map { [$0] } ?? [])
        try output.refuse(inputs: inputs)
        if let words { try OutputStream.refuseInputs(words, inputs) }
        let sync = try SyncSettings.check(settings.load(for: media).section("sync"), tolerance: nil)
        let info: MediaInfo
        let sources: [CaptionSource]
        let speech: MediaSpeech?
        do {
            info = try MediaProbe.probe(media, closedCaptions: true)
            sources = try captionInput.sources(of: media, info: info, file: captions)
            try output.refuse(inputs: sources.compactMap(\.file))
            if let words { try OutputStream.refuseInputs(words, sources.compactMap(\.file)) }
            speech = audioStream != nil || !info.streams(of: .audio).isEmpty ? try detectSpeech(info) : nil
        } catch let error as MediaError {
            if error.kind == .noSuchStream { throw CLIError(error.description) }
            Console.error(error.description)
            return try output.finish(
                settings.applyRules(to: [CheckResult.unreadable(file: media, check: .accuracy, reason: error.reason)]), format: format, verdicts: verdicts)
        }
        guard !sources.isEmpty else {
            throw CLIError("\(media) has no captions to check: give a caption file, or --track with one of its text subtitle tracks")
        }
        var check = AccuracyCheck()
        var results: [CheckResult] = []
        var timed: [AccuracyCheck.Outcome] = []
        for source in sources {
            guard let document = source.document else {
                results.append(CheckResult.unreadable(file: media, check: .accuracy, reason: source.problem ?? "unreadable", rule: .captionsParse))
                continue
            }
            // The timing first: the words are looked for where the sync fit puts each cue.
            let fix = sync.check(path: media, media: info, speech: speech, captions: document, source: source.label).fix
            do {
                let progress = ProgressLine(label: "accuracy \(media)")
                defer { progress.finish() }
                check.progress = { progress.update(done: $0, total: info.duration) }
                let outcome = try check.check(
                    path: media, media: info, captions: document, source: source.label, fix: fix, language: language ?? source.language,
                    audioStream: audioStream, speech: speech)
                results.append(outcome.result)
                timed.append(outcome)
            } catch {
                if error.kind == .noSuchStream { throw CLIError(error.description) }
                Console.error(error.description)
                results.append(CheckResult.unreadable(file: media, check: .accuracy, reason: error.reason))
            }
        }
        try writeWords(timed.first)
        try output.finish(settings.applyRules(to: results), format: format, verdicts: verdicts)
    }

    /// An HLS package: each subtitle rendition where its sync fit puts it, against the package's audio (segments read
    /// inside the package's folder only). --words writes the first rendition's.
    private func checkPackage() throws {
        try output.refuse(inputs: [media])
        if let words { try OutputStream.refuseInputs(words, [media]) }
        let sync = try SyncSettings.check(settings.load(for: media).section("sync"), tolerance: nil)
        let package = try HLSPackage.load(media)
        guard case .multivariant = package.playlist else {
            throw CLIError("\(media) is a media playlist: give the package's multivariant playlist, whose video places the subtitles")
        }
        let timelines = package.subtitleTimelines()
        guard !timelines.isEmpty else { throw CLIError("\(media) has no readable subtitle rendition to check") }
        let check = AccuracyCheck()
        let outcomes = package.readDeadline.bind {
            let progress = ProgressLine(label: "accuracy \(media)")
            defer { progress.finish() }
            let fixes = sync.check(package: package, timelines: timelines).map(\.fix)
            return check.check(package: package, timelines: timelines, fixes: fixes, language: language)
        }
        try writeWords(outcomes.first)
        try output.finish(settings.applyRules(to: outcomes.map(\.result)), format: format, verdicts: verdicts)
    }

    /// --words: the cues of `outcome` with their words' times, as WebVTT.
    private func writeWords(_ outcome: AccuracyCheck.Outcome?) throws {
        guard let words, let outcome, !outcome.placed.isEmpty else { return }
        let text = WordTimedCaptions.webVTT(placed: outcome.placed, accuracy: outcome.cues)
        try OutputStream.write(to: words) { sink in
            var bytes = Array(text.utf8)
            sink.take(&bytes)
        }
    }

    private func detectSpeech(_ info: MediaInfo) throws -> MediaSpeech {
        let progress = ProgressLine(label: "sync \(media)")
        defer { progress.finish() }
        return try MediaSpeech.detect(path: media, streamIndex: audioStream, keepAudio: true) { progress.update(done: $0, total: info.duration) }
    }
}
