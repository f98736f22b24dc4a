import ArgumentParser
import Captions
import Foundation

/// `medialint convert IN OUT`: between WebVTT, SRT, SCC and TTML.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert captions between WebVTT, SRT, SCC, TTML, SAMI, ASS and SBV (and from EBU STL).",
        discussion: """
            The output format comes from OUT's extension (.vtt, .srt, .scc, .ttml, .smi, .ass, .sbv) or --to. Markup and positions are mapped \
            where both formats can express them; whatever the target cannot hold is listed on standard error. \
            SCC is written as pop-on CEA-608 captions (CC1, drop-frame timecodes); TTML as IMSC 1.1 Text; SAMI in UTF-8 \
            with one language class; ASS as v4.00+. EBU STL is read, not written. \
            OUT is written atomically; use - for standard output. To extract an embedded track: \
            medialint convert film.mkv film.en.vtt --track 2
            """
    )

    @Argument(help: ArgumentHelp("The caption file to read (or a media file with --track).", valueName: "in"), completion: .file())
    var input: String

    @Argument(help: ArgumentHelp("The file to write (- for standard output).", valueName: "out"), completion: .file())
    var outputPath: String

    @Option(help: ArgumentHelp("The output format (default: from OUT's extension).", valueName: "vtt|srt|scc|ttml|smi|ass|sbv"))
    var to: CaptionFormat?

    @OptionGroup var captionInput: CaptionInputOptions

    func validate() throws {
        if to == nil, outputPath == "-" || CaptionFormat(pathExtension: (outputPath as NSString).pathExtension) == nil {
            throw ValidationError("Cannot tell the output format from '\(outputPath)': give --to vtt, srt, scc, ttml, smi, ass or sbv.")
        }
        if let format = to ?? CaptionFormat(pathExtension: (outputPath as NSString).pathExtension), !format.isWritable {
            throw ValidationError("\(format.displayName) is read, not written: choose another output format (vtt, srt, scc, ttml, smi, ass or sbv).")
        }
    }

    func run() throws {
        let document = try captionInput.read(input)
        defer { KeptUntilExit.keep(document) }
        let format = to ?? CaptionFormat(pathExtension: (outputPath as NSString).pathExtension)!
        let diagnostics = try CaptionOutput.write(document, as: format, to: outputPath, input: input)
        Diagnostics.print(document.diagnostics + diagnostics, file: input)
    }
}
