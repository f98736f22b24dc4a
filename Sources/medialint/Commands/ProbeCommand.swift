import ArgumentParser
import Basics
import MediaIO
import Reports

/// `medialint probe MEDIA`: container, streams, durations, languages, dispositions.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Show a media file's container, streams, durations, languages and dispositions.",
        discussion: """
            Durations and frame counts come from the container when it states them; otherwise (Matroska, \
            Ogg …) every packet is read to measure them ("measured" in the text output, \
            "durationSource": "packets" in JSON). A file cut short or corrupt is an error (exit status 2; with \
            --format json, a document naming the error is still printed).
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: ArgumentHelp("The media file.", valueName: "media"), completion: .file())
    var media: String

    @Option(
        name: .customLong("format"),
        help: ArgumentHelp("Output format (default: json when the -o file's name ends in .json, else text).", valueName: "format"))
    var formatOption: Format?

    /// `--format`, else what `-o`'s extension says, else text.
    var format: Format { formatOption ?? output.impliedFormat { $0 == "json" ? .json : nil } ?? .text }

    @Option(
        help: ArgumentHelp(
            "When to read every packet to measure durations and frame counts: auto (when the container does not state them), always, never.", valueName: "when")
    )
    var scan: MediaProbe.PacketScan = .whenNeeded

    @OptionGroup var output: OutputOptions
    @OptionGroup var playlists: PlaylistOptions

    func run() throws {
        try output.refuseUnwrittenFormat(chosen: formatOption != nil, formats: ["json"], command: "probe")
        playlists.apply(to: [media])
        try output.refuse(inputs: [media])
        let info = try FailureDocument.guarding(media, json: format == .json, to: output) {
            let info = try MediaProbe.probe(media, scan: scan, closedCaptions: true)
            // A container with no stream, or whose streams' tables hold nothing, describes nothing that can be read.
            if info.streams.isEmpty || info.streams.allSatisfy({ $0.frameCount == 0 }) {
                throw MediaError(
                    .corrupt, path: media,
                    reason: info.streams.isEmpty ? "no stream: nothing to read" : "its streams hold no frames (their sample tables are empty)")
            }
            return info
        }
        switch format {
        case .text:
            try output.emit(MediaInfoText(style: output.textStyle).render(info))
        case .json:
            var document = try JSONValueEncoder().encode(info)
            if case .object(let members) = document {
                document = .object([("tool", .string(ToolInfo.name)), ("version", .string(ToolInfo.version))] + members)
            }
            try output.emit(document.serialized(pretty: true) + "\n")
        }
    }
}

extension MediaProbe.PacketScan: ExpressibleByArgument {}
