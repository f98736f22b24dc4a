import ArgumentParser
import Basics
import Captions
import Findings

/// `medialint cues CAPTIONS`: the parsed cues, as a table or JSON.
struct CuesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cues",
        abstract: "Show the cues of a caption file (WebVTT, SRT, SCC, TTML, SAMI, ASS/SSA, SBV, EBU STL) or of a media file's track, as MediaLint reads them.",
        discussion: """
            The text column is the cue text with markup removed and character references decoded. What the \
            reader had to recover from (a dropped cue, an ignored setting, a guessed encoding) is listed on \
            standard error. --strict also reports every deviation from the WebVTT syntax (TTML: from IMSC 1.1 Text). For a video with \
            embedded captions, give its text subtitle track: medialint cues film.mkv --track 2
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Argument(
        help: ArgumentHelp(
            "The caption file (.vtt, .srt, .scc, .ttml, .smi, .ass/.ssa or .sbv; other names are sniffed), or a media file with --track.", valueName: "captions"
        ),
        completion: .file())
    var captions: String

    @Option(
        name: .customLong("format"),
        help: ArgumentHelp("Output format (default: json when the -o file's name ends in .json, else text).", valueName: "format"))
    var formatOption: Format?

    /// `--format`, else what `-o`'s extension says, else text.
    var format: Format { formatOption ?? output.impliedFormat { $0 == "json" ? .json : nil } ?? .text }

    @Flag(help: "Validate: report every deviation from the WebVTT syntax, including inside cue text.")
    var strict = false

    @OptionGroup var input: CaptionInputOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try output.refuseUnwrittenFormat(chosen: formatOption != nil, formats: ["json"], command: "cues")
        try output.refuse(inputs: [captions])
        let document = try FailureDocument.guarding(captions, json: format == .json, to: output) {
            try input.read(captions, mode: strict ? .strict : .lenient)
        }
        defer { KeptUntilExit.keep(document) }
        switch format {
        case .text:
            try output.stream { sink in
                var out = ByteWriter { sink.write($0) }
                CueTable(style: output.textStyle).write(document, to: &out)
                out.finish()
            }
            Diagnostics.print(document.diagnostics, file: captions)
        case .json:
            try output.stream { sink in
                var writer = JSONWriter.streaming(pretty: true, to: sink)
                CuesReport.write(document, file: captions, to: &writer)
                writer.endLine()
                writer.finish()
            }
        }
    }
}
