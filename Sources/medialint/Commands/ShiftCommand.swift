import ArgumentParser
import Captions
import Foundation

/// `medialint shift CAPTIONS --by SECONDS [--scale RATIO] -o OUT`: move and stretch cue times.
struct ShiftCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shift",
        abstract: "Move and stretch cue times: new = old × scale + offset.",
        discussion: """
            Everything but the times is kept (timestamps inside WebVTT cue text move too). Times that would \
            fall below zero are set to zero and reported. The format is kept, unless OUT's extension names another \
            (EBU STL is read, not written: shift it into .srt, .vtt …). Examples:
              medialint shift talk.srt --by 1.5 -o talk-fixed.srt
              medialint shift film.vtt --by=-0.8 --scale 25/23.976 -o film-pal.vtt
            """
    )

    @Argument(help: ArgumentHelp("The caption file.", valueName: "captions"), completion: .file())
    var captions: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds to add (negative: earlier).", valueName: "seconds"))
    var by: Double = 0

    @Option(help: ArgumentHelp("Stretch factor, as a number or a ratio such as 25/23.976.", valueName: "ratio"))
    var scale: Ratio = Ratio(value: 1)

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Where to write (default: standard output).", valueName: "file"), completion: .file())
    var outputPath: String?

    @OptionGroup var rewrite: InPlaceOptions
    @OptionGroup var input: CaptionInputOptions

    private var inPlace: Bool { rewrite.inPlace }

    func validate() throws {
        if inPlace, outputPath != nil { throw ValidationError("Give either -o or --in-place, not both.") }
        if inPlace, input.track != nil { throw ValidationError("--in-place cannot rewrite an embedded track; write the captions with -o.") }
        try NumberRange.check(by, "--by (seconds)", -1e9...1e9)
        try NumberRange.check(scale.value, "--scale", 0.001...1000)
    }

    func run() throws {
        var document = try input.read(captions)
        // The document as read: what the edits are made to, in the file's own bytes, in place or in a copy.
        let original = document
        defer {
            KeptUntilExit.keep(document)
            KeptUntilExit.keep(original)
        }
        let edits = TimingEdit(offset: by, scale: scale.value).apply(to: &document)
        if inPlace {
            let written = try CaptionOutput.rewrite(captions, original: original, edited: document, inPlace: rewrite)
            // The reader's notes say what the cue model leaves out (an ASS tag "dropped"): the file edited in place
            // keeps it all, so only its warnings and errors are said.
            Diagnostics.print(document.diagnostics.filter { $0.severity != .info } + edits + written, file: captions)
            return
        }
        // -o's extension chooses the format written (an EBU STL file, read only, shifts into an SRT file, say).
        let format = outputPath.flatMap { CaptionFormat(pathExtension: ($0 as NSString).pathExtension) } ?? document.format
        let written = try CaptionOutput.write(
            document, as: format, to: outputPath ?? "-", input: captions, original: input.track == nil ? original : nil)
        // A copy in the file's own format is the file with the edits: the reader's notes are not about it.
        let copied = format == original.format && input.track == nil && CaptionPatch.patches(format)
        Diagnostics.print(document.diagnostics.filter { !copied || $0.severity != .info } + edits + written, file: captions)
    }
}
