import Captions
import Findings
import Foundation
import MediaIO

/// One source of captions for a media file — a sidecar file or an embedded text track — read, or with the
/// reason it could not be.
public struct CaptionSource: Sendable {
    public enum Origin: Sendable {
        case file(String)
        case track(StreamInfo)
    }

    public var origin: Origin
    public var document: CaptionDocument?
    /// Why the source could not be read (when `document` is nil), naming it.
    public var problem: String?

    public init(origin: Origin, document: CaptionDocument? = nil, problem: String? = nil) {
        self.origin = origin
        self.document = document
        self.problem = problem
    }

    /// The file read; nil for a track.
    public var file: String? {
        if case .file(let path) = origin { path } else { nil }
    }

    /// The language its track is tagged with (nil for a file, or an untagged track).
    public var language: String? {
        if case .track(let stream) = origin { stream.language } else { nil }
    }

    /// The path of a file, `track N` for a track: how every report names the source.
    public var label: String {
        switch origin {
        case .file(let path): path
        case .track(let track): track.kind == .video ? "track \(track.index) (CEA-608)" : "track \(track.index)"
        }
    }

    /// Every caption source of the media at `path` (described by `media`): its sidecar files, sorted (or the caption
    /// `files` named for it instead), then its embedded text tracks (CEA-608 tracks included) and the 608 captions its
    /// video carries. `readFile` reads a caption file.
    public static func all(
        for path: String, media: MediaInfo, files: [String]? = nil,
        readFile: (String) throws -> CaptionDocument = { path throws in try CaptionFile.read(path) }
    ) -> [CaptionSource] {
        var sources = (files ?? CaptionSidecars.find(for: path)).map { file in
            do {
                let document = try readFile(file)
                return CaptionSource(
                    origin: .file(file), document: media.duration.map { document.endingPresentation(at: (media.startTime ?? 0) + $0) } ?? document)
            } catch {
                let message = "\(error)"
                return CaptionSource(origin: .file(file), problem: message.hasPrefix(file) ? message : "\(file): \(message)")
            }
        }
        for track in media.textSubtitleTracks + media.closedCaptionVideoTracks {
            do {
                sources.append(CaptionSource(origin: .track(track), document: try EmbeddedCaptions.read(path: path, streamIndex: track.index)))
            } catch {
                sources.append(CaptionSource(origin: .track(track), problem: "track \(track.index): \(error.reason)"))
            }
        }
        return sources
    }
}
