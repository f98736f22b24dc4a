import ArgumentParser
import Captions
import Foundation

/// `medialint convert IN OUT`: WebVTT ⇄ SRT.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert captions between WebVTT and SRT.",
        discussion: """
            The output format comes from OUT's extension (.vtt, .srt) or --to. Markup and positions are mapped \
            where both formats can express them; whatever the target cannot hold is listed on standard error. \
            OUT is written atomically; use - for standard output. To extract an embedded track: \
            medialint convert film.mkv film.en.vtt --track 2
            """
    )

    @Argument(help: ArgumentHelp("The caption file to read (or a media file with --track).", valueName: "in"))
    var input: String

    @Argument(help: ArgumentHelp("The file to write (- for standard output).", valueName: "out"))
    var outputPath: String

    @Option(help: ArgumentHelp("The output format (default: from OUT's extension).", valueName: "vtt|srt"))
    var to: CaptionFormat?

    @OptionGroup var captionInput: CaptionInputOptions

    func validate() throws {
        if to == nil, outputPath == "-" || CaptionFormat(pathExtension: (outputPath as NSString).pathExtension) == nil {
            throw ValidationError("Cannot tell the output format from '\(outputPath)': give --to vtt or --to srt.")
        }
    }

    func run() throws {
        let document = try captionInput.read(input)
        let format = to ?? CaptionFormat(pathExtension: (outputPath as NSString).pathExtension)!
        let (bytes, diagnostics) = CaptionFile.encode(document, as: format)
        try CaptionOutput.write(bytes, to: outputPath, input: input)
        Diagnostics.print(document.diagnostics + diagnostics, file: input)
    }
}

/// Writing caption output: atomically to a file, or to standard output; never over the input by accident.
enum CaptionOutput {
    static func write(_ bytes: [UInt8], to path: String, input: String, inPlace: Bool = false) throws {
        if path == "-" {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        if !inPlace, sameFile(path, input) {
            throw CLIError("\(path) is the input file; write elsewhere (or use --in-place where offered)")
        }
        try AtomicFile.write(Data(bytes), to: path)
    }

    private static func sameFile(_ a: String, _ b: String) -> Bool {
        URL(fileURLWithPath: a).standardizedFileURL.resolvingSymlinksInPath() == URL(fileURLWithPath: b).standardizedFileURL.resolvingSymlinksInPath()
    }
}
