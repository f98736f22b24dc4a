import ArgumentParser
import MediaIO
import Findings
import Reports

/// `medialint probe MEDIA`: container, streams, durations, languages, dispositions.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Show a media file's container, streams, durations, languages and dispositions.",
        discussion: """
            Durations and frame counts come from the container when it states them; otherwise (Matroska, \
            Ogg …) every packet is read to measure them ("measured" in the text output, \
            "durationSource": "packets" in JSON). A file cut short or corrupt is an error (exit status 2).
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: ArgumentHelp("The media file.", valueName: "media"))
    var media: String

    @Option(help: "Output format.")
    var format: Format = .text

    @Option(
        help: ArgumentHelp(
            "When to read every packet to measure durations and frame counts: auto (when the container does not state them), always, never.", valueName: "when")
    )
    var scan: MediaProbe.PacketScan = .whenNeeded

    @OptionGroup var output: OutputOptions
    @OptionGroup var playlists: PlaylistOptions

    func run() throws {
        playlists.apply(to: [media])
        try output.refuse(inputs: [media])
        let info = try MediaProbe.probe(media, scan: scan)
        switch format {
        case .text:
            try output.emit(MediaInfoText(style: output.textStyle).render(info))
        case .json:
            try output.emit(try JSONValueEncoder().encode(info).serialized(pretty: true) + "\n")
        }
    }
}

extension MediaProbe.PacketScan: ExpressibleByArgument {}
