import Captions
import FileAccess
import Foundation
import MediaIO
import Streaming

/// An HLS package on disk: its multivariant playlist and the media playlists it names, read inside the playlist's
/// folder only (a URI that leaves it, a network address, a symbolic link out of it or anything but a regular file is
/// refused and said, never read), and each subtitle rendition's WebVTT segments joined into one timeline.
public struct HLSPackage: Sendable {
    /// The playlist given: a multivariant playlist, or a media playlist (a subtitle rendition's) on its own.
    public var path: String
    public var playlist: HLSPlaylist
    /// The media playlists read, by URI as the multivariant playlist writes it.
    public var mediaPlaylists: [String: HLSMediaPlaylist] = [:]
    /// Where each media playlist read is, relative to the package's folder.
    var mediaPlaylistPaths: [String: String] = [:]
    /// URIs that could not be read or were refused, with why.
    public var unreadable: [String: String] = [:]
    /// The package's folder (real path): nothing outside it is read.
    let folder: String
    /// The presentation's first media timestamp, found once when the package is loaded.
    private var start: Double?

    /// The most a playlist or a WebVTT segment may hold.
    static let fileLimit = 16 << 20

    /// Reads the playlist at `path` and the media playlists it names.
    public static func load(_ path: String) throws(CaptionError) -> HLSPackage {
        let directory = (path as NSString).deletingLastPathComponent
        guard let folder = PathContainment.realPath(directory.isEmpty ? "." : directory) else {
            throw CaptionError(rule: "hls.read", message: "\(path): its folder cannot be resolved")
        }
        let bytes: [UInt8]
        do {
            bytes = try RegularFile(path: path).readAll(limit: fileLimit)
        } catch {
            throw CaptionError(rule: "hls.read", message: "\(path): \(error.reason)")
        }
        let playlist: HLSPlaylist
        do {
            playlist = try HLSPlaylist.parse(bytes)
        } catch {
            throw CaptionError(rule: "hls.read", message: "\(path): \(error.message)")
        }
        var package = HLSPackage(path: path, playlist: playlist, folder: folder)
        if case .multivariant(let multivariant) = playlist {
            let uris = multivariant.variants.map(\.uri) + multivariant.renditions.compactMap(\.uri)
            for uri in uris where package.mediaPlaylists[uri] == nil && package.unreadable[uri] == nil {
                switch package.read(uri, inPlaylistAt: (path as NSString).lastPathComponent) {
                case .success(let (relative, data)):
                    do {
                        guard case .media(let media) = try HLSPlaylist.parse(data) else {
                            package.unreadable[uri] = "a multivariant playlist where a media playlist belongs"
                            continue
                        }
                        package.mediaPlaylists[uri] = media
                        package.mediaPlaylistPaths[uri] = relative
                    } catch {
                        package.unreadable[uri] = error.message
                    }
                case .failure(let reason): package.unreadable[uri] = reason.description
                }
            }
        }
        package.start = package.firstMediaTimestamp()
        return package
    }

    /// Why a file of the package was not read.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The bytes of the file `uri` names in the playlist at `playlistPath` (relative to the folder), and its path
    /// relative to the folder.
    func read(_ uri: String, inPlaylistAt playlistPath: String) -> Result<(String, [UInt8]), Refusal> {
        switch HLSReference.resolve(uri, inPlaylistAt: playlistPath) {
        case .refused(let reason): return .failure(Refusal(description: reason))
        case .inside(let relative):
            let full = folder + "/" + relative
            guard let real = PathContainment.realPath(full) else { return .failure(Refusal(description: "no such file")) }
            guard PathContainment.isWithin(real, root: folder) else {
                return .failure(Refusal(description: "a link that leads outside the package's folder"))
            }
            do {
                return .success((relative, try RegularFile(path: real).readAll(limit: Self.fileLimit)))
            } catch {
                return .failure(Refusal(description: error.reason))
            }
        }
    }

    /// The real paths of the files the package is made of beyond the playlist given: its media playlists and their
    /// segments (those inside the folder).
    public func memberFiles() -> Set<String> {
        var files = Set<String>()
        for (uri, media) in mediaPlaylists {
            guard let relative = mediaPlaylistPaths[uri] else { continue }
            if let real = PathContainment.realPath(folder + "/" + relative) { files.insert(real) }
            for segment in media.segments {
                guard case .inside(let path) = HLSReference.resolve(segment.uri, inPlaylistAt: relative),
                    let real = PathContainment.realPath(folder + "/" + path), PathContainment.isWithin(real, root: folder)
                else { continue }
                files.insert(real)
            }
        }
        return files
    }

    /// The subtitle renditions (for a media playlist given on its own: none).
    public var subtitleRenditions: [HLSRendition] {
        guard case .multivariant(let multivariant) = playlist else { return [] }
        return multivariant.renditions.filter { $0.type == .subtitles && $0.uri != nil }
    }

    /// The first media timestamp of the presentation: the first picture of the first variant's first segment (else
    /// its first timestamp); nil when there is no variant to read.
    public func presentationStart() -> Double? { start }

    private func firstMediaTimestamp() -> Double? {
        guard case .multivariant(let multivariant) = playlist, let variant = multivariant.variants.first,
            let media = mediaPlaylists[variant.uri], let segment = media.segments.first,
            case .inside(let playlistRelative) = HLSReference.resolve(variant.uri, inPlaylistAt: (path as NSString).lastPathComponent),
            case .inside(let relative) = HLSReference.resolve(segment.uri, inPlaylistAt: playlistRelative),
            let real = PathContainment.realPath(folder + "/" + relative), PathContainment.isWithin(real, root: folder),
            let info = try? MediaProbe.probe(real, scan: .never)
        else { return nil }
        return info.streams.first { $0.kind == .video }?.startTime ?? info.startTime
    }

    /// The cues of a subtitle rendition (nil: the first), its WebVTT segments joined on the presentation's timeline.
    /// A media playlist given on its own is read as that rendition, its times on the MPEG-2 clock.
    public func subtitles(_ rendition: HLSRendition? = nil) throws(CaptionError) -> CaptionDocument {
        let playlistName = (path as NSString).lastPathComponent
        let media: HLSMediaPlaylist
        let mediaPath: String
        var notes: [CaptionDiagnostic] = []
        switch playlist {
        case .media(let own):
            media = own
            mediaPath = playlistName
            notes.append(
                CaptionDiagnostic(
                    line: 0, rule: "hls.timeline", severity: .info,
                    message: "a subtitle playlist on its own: cue times are on the MPEG-2 clock (read the multivariant playlist to place them on the video's)"))
        case .multivariant:
            guard let chosen = rendition ?? subtitleRenditions.first, let uri = chosen.uri else {
                throw CaptionError(rule: "hls.subtitles", message: "\(path): the package has no subtitle rendition")
            }
            guard let found = mediaPlaylists[uri], case .inside(let relative) = HLSReference.resolve(uri, inPlaylistAt: playlistName) else {
                throw CaptionError(rule: "hls.subtitles", message: "\(path): subtitles \"\(chosen.name)\": \(uri): \(unreadable[uri] ?? "not read")")
            }
            media = found
            mediaPath = relative
        }
        var segments: [HLSSubtitleTimeline.Segment] = []
        for segment in media.segments {
            switch read(segment.uri, inPlaylistAt: mediaPath) {
            case .success(let (_, bytes)): segments.append(HLSSubtitleTimeline.Segment(uri: segment.uri, bytes: bytes))
            case .failure(let reason):
                notes.append(CaptionDiagnostic(line: 0, rule: "hls.segment", severity: .error, message: "\(segment.uri): \(reason)"))
            }
        }
        var document = HLSSubtitleTimeline.join(segments, presentationStart: presentationStart() ?? 0)
        document.diagnostics = notes + document.diagnostics
        return document
    }
}
