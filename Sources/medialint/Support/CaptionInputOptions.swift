import ArgumentParser
import Captions
import Checks
import Foundation
import Library
import MediaIO
import Streaming

/// Where captions come from: a caption file (`--encoding` when it is not UTF-8 and not detected), or an
/// embedded text subtitle track of a media file (`--track`).
struct CaptionInputOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The caption file's text encoding, e.g. windows-1251 or gb2312 (default: detected; SRT falls back to windows-1252).", valueName: "name"))
    var encoding: String?

    @Option(
        help: ArgumentHelp(
            "Of a SAMI file in several languages, the one to read: its class (KRCC) or language (ko-KR, ko) (default: the first used).",
            valueName: "class"))
    var samiLanguage: String?

    @Option(help: ArgumentHelp("Read this embedded text subtitle track of a media file (its stream index, as 'medialint probe' lists it).", valueName: "index"))
    var track: Int?

    /// Reads a caption file or an embedded track, turning failures into the CLI's one-line error.
    func read(_ path: String, mode: WebVTTReader.Mode = .lenient) throws -> CaptionDocument {
        if (path as NSString).pathExtension.lowercased() == "m3u8" { return try Self.readHLS(path, rendition: track) }
        if let track { return try EmbeddedCaptions.read(path: path, streamIndex: track) }
        if let tracks = Self.mediaTracks(path) {
            throw CLIError(
                "\(path) is a media file: give --track with one of its text subtitle tracks"
                    + (tracks.isEmpty ? " (it has none)" : " (\(tracks))"))
        }
        // Named as media but not media FFmpeg reads (empty, cut short, something else): said as such, not read as
        // captions (an empty file would be captions with no cue, and pass).
        if LibraryScanner.mediaExtensions.contains((path as NSString).pathExtension.lowercased()) {
            do { _ = try MediaProbe.probe(path, scan: .never) } catch {
                throw CLIError(error.description.hasPrefix(path) ? error.description : "\(path): \(error.description)")
            }
        }
        do {
            return try CaptionFile.read(path, encoding: encoding, mode: mode, language: samiLanguage)
        } catch {
            throw CLIError(error.message.hasPrefix(path) ? error.message : "\(path): \(error.message)")
        }
    }
}

extension CaptionInputOptions {
    /// The caption sources of the media at `media` (described by `info`): the caption `file` given, else the track
    /// asked for, else every sidecar file and embedded text track. A caption file that cannot be read is a source with
    /// its problem (said on standard error), like a sidecar's. With `quietNotes` (the file is rewritten in place), the
    /// reader's notes — what the cue model leaves out, which the file keeps — are not said.
    func sources(of media: String, info: MediaInfo, file: String?, quietNotes: Bool = false) throws -> [CaptionSource] {
        if let file {
            do {
                let document = try read(file)
                Diagnostics.print(document.diagnostics.filter { !quietNotes || $0.severity != .info }, file: file)
                return [CaptionSource(origin: .file(file), document: document)]
            } catch let error as CLIError {
                Console.error(error.message)
                return [CaptionSource(origin: .file(file), problem: error.message)]
            }
        }
        if let track {
            let document = try EmbeddedCaptions.read(path: media, streamIndex: track)
            guard let stream = info.streams.first(where: { $0.index == track }) else { throw CLIError("\(media) has no stream \(track)") }
            return [CaptionSource(origin: .track(stream), document: document)]
        }
        return CaptionSource.all(for: media, media: info, readFile: { try read($0) })
    }

    /// For a file that is not named as captions but is audio or video: a description of its text subtitle
    /// tracks ("" when it has none). Nil for anything else.
    static func mediaTracks(_ path: String) -> String? {
        guard CaptionFormat(pathExtension: (path as NSString).pathExtension) == nil,
            let info = try? MediaProbe.probe(path, scan: .never),
            info.streams.contains(where: { $0.kind == .video || $0.kind == .audio })
        else { return nil }
        return info.textSubtitleTracks.map(describe).joined(separator: ", ")
    }

    /// An HLS playlist's subtitles joined into one timeline: rendition `index` (in the order the multivariant playlist
    /// lists its subtitle renditions; nil: the first), or a subtitle playlist on its own.
    static func readHLS(_ path: String, rendition index: Int?) throws -> CaptionDocument {
        do {
            let package = try HLSPackage.load(path)
            let renditions = package.subtitleRenditions
            if let index {
                guard renditions.indices.contains(index) else {
                    let listed = renditions.enumerated().map { "\($0.offset): \($0.element.name)" + ($0.element.language.map { " (\($0))" } ?? "") }
                    throw CLIError("\(path): no subtitle rendition \(index)" + (listed.isEmpty ? " (it has none)" : " (\(listed.joined(separator: ", ")))"))
                }
                return try package.subtitles(renditions[index])
            }
            return try package.subtitles()
        } catch let error as CaptionError {
            throw CLIError(error.message)
        }
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
        case "smi", "sami": self = .sami
        case "ass", "ssa": self = .ass
        case "sbv": self = .sbv
        case "stl": self = .stl
        default: return nil
        }
    }

    public static var allValueStrings: [String] { ["vtt", "srt", "scc", "ttml", "smi", "ass", "sbv", "stl"] }
}
