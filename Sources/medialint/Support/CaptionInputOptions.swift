import ArgumentParser
import Captions
import Foundation
import Checks
import Library
import MediaIO

/// Where captions come from: a caption file (`--encoding` when it is not UTF-8 and not detected), or an
/// embedded text subtitle track of a media file (`--track`).
struct CaptionInputOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The caption file's text encoding, e.g. windows-1251 or gb2312 (default: detected; SRT falls back to windows-1252).", valueName: "name"))
    var encoding: String?

    @Option(help: ArgumentHelp("Read this embedded text subtitle track of a media file (its stream index, as 'medialint probe' lists it).", valueName: "index"))
    var track: Int?

    /// Reads a caption file or an embedded track, turning failures into the CLI's one-line error.
    func read(_ path: String, mode: WebVTTReader.Mode = .lenient) throws -> CaptionDocument {
        if let track { return try EmbeddedCaptions.read(path: path, streamIndex: track) }
        if let tracks = Self.mediaTracks(path) {
            throw CLIError(
                "\(path) is a media file: give --track with one of its text subtitle tracks"
                    + (tracks.isEmpty ? " (it has none)" : " (\(tracks))"))
        }
        do {
            return try CaptionFile.read(path, encoding: encoding, mode: mode)
        } catch {
            throw CLIError(error.message.hasPrefix(path) ? error.message : "\(path): \(error.message)")
        }
    }
}

extension CaptionInputOptions {
    /// For a file that is not named as captions but is audio or video: a description of its text subtitle
    /// tracks ("" when it has none). Nil for anything else.
    static func mediaTracks(_ path: String) -> String? {
        guard CaptionFormat(pathExtension: (path as NSString).pathExtension) == nil,
            let info = try? MediaProbe.probe(path, scan: .never),
            info.streams.contains(where: { $0.kind == .video || $0.kind == .audio })
        else { return nil }
        return info.textSubtitleTracks.map(describe).joined(separator: ", ")
    }

    /// "2: eng, subrip, English (SDH)".
    static func describe(_ track: StreamInfo) -> String {
        "\(track.index): " + ([track.language, track.codec, track.title].compactMap { $0 }.joined(separator: ", "))
    }
}

extension CaptionFormat: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument.lowercased() {
        case "vtt", "webvtt": self = .webvtt
        case "srt": self = .srt
        case "scc": self = .scc
        case "ttml", "dfxp", "imsc": self = .ttml
        default: return nil
        }
    }

    public static var allValueStrings: [String] { ["vtt", "srt", "scc", "ttml"] }
}
