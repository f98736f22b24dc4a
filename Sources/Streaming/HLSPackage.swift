import Captions
import FileAccess
import Findings
import Foundation

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
    /// The files of the video: the first variant's (the one players start with; every variant shows the same
    /// pictures). Found once, when the package is loaded, as are `audioFiles` and `clocks`.
    public private(set) var videoFiles = MediaFiles()
    /// The files that carry the presentation's audio: the first variant's own when they have an audio stream, else
    /// those of its audio group's default (or first) rendition.
    public private(set) var audioFiles = MediaFiles()
    /// Where each discontinuity sequence of the video plays, by sequence number: its first picture (else its first
    /// timestamp) at its playlist start.
    public private(set) var clocks: [Int: HLSSequenceClock] = [:]
    /// When reading the package's media must end (set by the caller that reads it: one time allowed for the whole
    /// package, not one per segment); bind it around the work that reads its media.
    public var readDeadline: ReadDeadline?

    /// The first media timestamp of the presentation: the first picture of the first variant's first segment (else
    /// its first timestamp); nil when there is no variant to read.
    public var presentationStart: Double? { clocks[0]?.origin }

    /// The most a playlist or a WebVTT segment may hold.
    static let fileLimit = 16 << 20

    /// What the package needs to know of a run of media segments, read by the caller (who decodes media): the
    /// presentation time of its first picture (else its first timestamp) and whether it carries audio. Nil when its
    /// first segment cannot be read.
    public struct SegmentFacts: Sendable {
        public var firstTimestamp: Double?
        public var hasAudio: Bool

        public init(firstTimestamp: Double?, hasAudio: Bool) {
            self.firstTimestamp = firstTimestamp
            self.hasAudio = hasAudio
        }
    }

    /// Reads the playlist at `path` and the media playlists it names; `probe` tells what the first segment of a run
    /// of media segments holds (where each discontinuity sequence plays, which files carry the audio).
    public static func load(_ path: String, probe: (MediaFiles.Run) -> SegmentFacts?) throws(CaptionError) -> HLSPackage {
        var package = try readPlaylists(path)
        package.probeRuns(probe)
        return package
    }

    /// Reads the playlist at `path` and the media playlists it names, and lists the media files: the first variant's
    /// as the video, its audio group's as the audio. Nothing is known yet of what the segments hold (`probeRuns`).
    public static func readPlaylists(_ path: String) throws(CaptionError) -> HLSPackage {
        let directory = (path as NSString).deletingLastPathComponent
        guard let folder = PathContainment.realPath(directory.isEmpty ? "." : directory) else {
            throw CaptionError(rule: "m3u8.read", message: "\(path): its folder cannot be resolved")
        }
        let bytes: [UInt8]
        do {
            bytes = try RegularFile(path: path).readAll(limit: fileLimit)
        } catch {
            throw CaptionError(rule: "m3u8.read", message: "\(path): \(error.reason)")
        }
        let playlist: HLSPlaylist
        do {
            playlist = try HLSPlaylist.parse(bytes)
        } catch {
            throw CaptionError(rule: "m3u8.read", message: "\(path): \(error.message)")
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
        if case .multivariant(let multivariant) = playlist, let variant = multivariant.variants.first {
            package.videoFiles = package.mediaFiles(ofPlaylist: variant.uri)
            package.audioFiles = package.audio(of: variant, in: multivariant)
        }
        return package
    }

    /// Asks `probe` what the first segment of each run of the video holds (while the deadline bound, if any, lasts):
    /// where each discontinuity sequence plays, and whether the video's own files carry the audio.
    public mutating func probeRuns(_ probe: (MediaFiles.Run) -> SegmentFacts?) {
        guard let firstRun = videoFiles.runs.first else { return }
        let first = probe(firstRun)
        for run in videoFiles.runs where clocks[run.sequence] == nil {
            if ReadDeadline.current?.isPast == true { break }
            let facts = run == firstRun ? first : probe(run)
            clocks[run.sequence] = facts?.firstTimestamp.map { HLSSequenceClock(origin: $0, start: run.playlistStart) }
        }
        if first?.hasAudio == true { audioFiles = videoFiles }
    }

    /// Why a file of the package was not read.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public var description: String
        /// The URI or a link leads out of the package's folder (rather than to nothing).
        public var leavesPackage = false
    }

    /// Where the file `uri` names in the playlist at `playlistPath` (relative to the folder) is: its path relative to
    /// the folder and its real path, which must stay inside the folder.
    func locate(_ uri: String, inPlaylistAt playlistPath: String) -> Result<(relative: String, real: String), Refusal> {
        switch HLSReference.resolve(uri, inPlaylistAt: playlistPath) {
        case .refused(let reason): return .failure(Refusal(description: reason, leavesPackage: true))
        case .inside(let relative):
            guard let real = PathContainment.realPath(folder + "/" + relative) else { return .failure(Refusal(description: "no such file")) }
            guard PathContainment.isWithin(real, root: folder) else {
                return .failure(Refusal(description: "a link that leads outside the package's folder", leavesPackage: true))
            }
            return .success((relative, real))
        }
    }

    /// The bytes of the file `uri` names in the playlist at `playlistPath`, and its path relative to the folder.
    func read(_ uri: String, inPlaylistAt playlistPath: String) -> Result<(String, [UInt8]), Refusal> {
        locate(uri, inPlaylistAt: playlistPath).flatMap { file in
            do throws(FileAccessError) {
                return .success((file.relative, try RegularFile(path: file.real).readAll(limit: Self.fileLimit)))
            } catch {
                return .failure(Refusal(description: error.reason))
            }
        }
    }

    /// The files of a media playlist's segments, in runs that are each read as one stream: the initialisation section
    /// (`#EXT-X-MAP`: a fragmented MP4's header), then each segment's file in order — a file whose parts are
    /// consecutive segments (`#EXT-X-BYTERANGE`) once. A new run starts at each `#EXT-X-DISCONTINUITY` (timestamps may
    /// start again) or change of initialisation section. Real paths of regular, non-empty files inside the folder; the
    /// others are left out and said in `unreadable`.
    public struct MediaFiles: Sendable, Equatable {
        public var runs: [Run] = []
        /// The URIs left out, with why.
        public var unreadable: [Unreadable] = []

        /// Segments that play one after another with continuous timestamps (a discontinuity sequence, or the part of
        /// one with the same initialisation section).
        public struct Run: Sendable, Equatable {
            /// The discontinuity sequence it belongs to.
            public var sequence: Int
            public var initSection: String?
            public var segments: [String] = []
            /// Where the run starts in the playlist (its first segment's `#EXTINF` durations before it added up).
            public var playlistStart: Double

            /// Its files, in the order they are read.
            public var files: [String] { (initSection.map { [$0] } ?? []) + segments }
            /// Its first segment's files: the initialisation section it needs, then the segment.
            public var firstSegmentFiles: [String] { Array(files.prefix(initSection == nil ? 1 : 2)) }
        }

        public struct Unreadable: Sendable, Equatable {
            public var uri: String
            public var reason: String
            /// The URI or a link leads out of the package's folder.
            public var leavesPackage = false
        }

        /// The initialisation section of the first run.
        public var initSection: String? { runs.first?.initSection }
        /// Every segment's file, in order.
        public var segments: [String] { runs.flatMap(\.segments) }
        /// Every file, in order (each run's initialisation section before its segments).
        public var all: [String] { runs.flatMap(\.files) }
    }

    /// The files of the media playlist `uri` names.
    public func mediaFiles(ofPlaylist uri: String) -> MediaFiles {
        guard let media = mediaPlaylists[uri], let relative = mediaPlaylistPaths[uri] else { return MediaFiles() }
        var files = MediaFiles()
        // The URIs said unreadable, for a repeated one in constant time (a searched list made many quadratic).
        var unreadable = Set<String>()
        // A file that can be opened as media: inside the folder, regular (a FIFO would block a reader), not empty.
        func usable(_ uri: String) -> String? {
            let reason: String
            var leaves = false
            switch locate(uri, inPlaylistAt: relative) {
            case .failure(let refusal):
                reason = refusal.description
                leaves = refusal.leavesPackage
            case .success(let file):
                do throws(FileAccessError) {
                    if try RegularFile(path: file.real).size > 0 { return file.real }
                    reason = "an empty file"
                } catch {
                    reason = error.reason
                }
            }
            if unreadable.insert(uri).inserted { files.unreadable.append(.init(uri: uri, reason: reason, leavesPackage: leaves)) }
            return nil
        }
        for (index, segment) in media.segments.enumerated() where !segment.continuesFile {
            if index == 0 || segment.discontinuity || segment.initSection != media.segments[index - 1].initSection {
                files.runs.append(
                    MediaFiles.Run(sequence: segment.discontinuitySequence, initSection: segment.initSection.flatMap(usable), playlistStart: segment.start))
            }
            guard let path = usable(segment.uri), files.runs[files.runs.count - 1].segments.last != path else { continue }
            files.runs[files.runs.count - 1].segments.append(path)
        }
        files.runs.removeAll { $0.segments.isEmpty }
        return files
    }

    /// The real paths of the files the package is made of beyond the playlist given: its media playlists and their
    /// segments (those inside the folder).
    public func memberFiles() -> Set<String> {
        var files = Set<String>()
        for uri in mediaPlaylists.keys {
            if let playlist = try? locate(uri, inPlaylistAt: (path as NSString).lastPathComponent).get() { files.insert(playlist.real) }
            files.formUnion(mediaFiles(ofPlaylist: uri).all)
        }
        return files
    }

    /// The subtitle renditions (for a media playlist given on its own: none).
    public var subtitleRenditions: [HLSRendition] {
        guard case .multivariant(let multivariant) = playlist else { return [] }
        return multivariant.renditions.filter { $0.type == .subtitles && $0.uri != nil }
    }

    /// The cues of a subtitle rendition (nil: the first), its WebVTT segments joined on the presentation's timeline,
    /// with what was wrong with its segments as the document's diagnostics (what `cues` and `lint` show). A media
    /// playlist given on its own is read as that rendition, its times on the MPEG-2 clock.
    public func subtitles(_ rendition: HLSRendition? = nil) throws(CaptionError) -> CaptionDocument {
        let timeline = try subtitleTimeline(rendition)
        var document = timeline.document
        if case .media = playlist {
            document.diagnostics.append(
                CaptionDiagnostic(
                    line: 0, rule: "m3u8.timeline", severity: .info,
                    message: "a subtitle playlist on its own: cue times are on the MPEG-2 clock (read the multivariant playlist to place them on the video's)"))
        }
        document.diagnostics += timeline.findings.map { finding in
            let severity: CaptionDiagnostic.Severity =
                switch finding.severity {
                case .error: .error
                case .warning: .warning
                case .info: .info
                }
            return CaptionDiagnostic(line: 0, rule: finding.rule, severity: severity, message: finding.message)
        }
        return document
    }

    /// A subtitle rendition's timeline: its cues, and what was wrong with its segments as findings (`hls.segment`,
    /// `hls.reference`, `hls.timestamp-map`).
    public struct SubtitleTimeline: Sendable {
        /// The rendition (nil: a media playlist given on its own).
        public var rendition: HLSRendition?
        public var document: CaptionDocument
        public var findings: [Finding]
    }

    /// The timeline of a subtitle rendition (nil: the first; a media playlist given on its own: that playlist).
    public func subtitleTimeline(_ rendition: HLSRendition? = nil) throws(CaptionError) -> SubtitleTimeline {
        let playlistName = (path as NSString).lastPathComponent
        let media: HLSMediaPlaylist
        let mediaPath: String
        var chosen: HLSRendition?
        switch playlist {
        case .media(let own):
            media = own
            mediaPath = playlistName
        case .multivariant:
            guard let found = rendition ?? subtitleRenditions.first, let uri = found.uri else {
                throw CaptionError(rule: "m3u8.subtitles", message: "\(path): the package has no subtitle rendition")
            }
            guard let read = mediaPlaylists[uri], case .inside(let relative) = HLSReference.resolve(uri, inPlaylistAt: playlistName) else {
                throw CaptionError(rule: "m3u8.subtitles", message: "\(path): subtitles \"\(found.name)\": \(uri): \(unreadable[uri] ?? "not read")")
            }
            chosen = found
            media = read
            mediaPath = relative
        }
        if media.segments.contains(where: { $0.initSection != nil }) {
            throw CaptionError(rule: "m3u8.subtitles", message: "\(path): \(Self.fragmentedSubtitles)")
        }
        var segments: [HLSSubtitleTimeline.Segment] = []
        var findings: [Finding] = []
        // Byte ranges of one file, one after the other: the file is read once.
        for segment in media.segments where !segment.continuesFile {
            switch read(segment.uri, inPlaylistAt: mediaPath) {
            case .success(let (_, bytes)):
                // Each discontinuity sequence on the clock of the video's sequence of the same number.
                segments.append(
                    HLSSubtitleTimeline.Segment(uri: segment.uri, bytes: bytes, start: segment.start, clock: clocks[segment.discontinuitySequence]))
            case .failure(let reason):
                findings.append((reason.leavesPackage ? Rule.hlsReference : Rule.hlsSegment).finding(message: "\(segment.uri): \(reason)"))
            }
        }
        let joined = HLSSubtitleTimeline.join(segments, presentationStart: presentationStart ?? 0)
        return SubtitleTimeline(rendition: chosen, document: joined.document, findings: findings + joined.findings)
    }

    /// Why a subtitle rendition of fragmented MP4 segments is not read.
    package static let fragmentedSubtitles =
        "its subtitle segments are fragmented MP4 (#EXT-X-MAP: IMSC1 or WebVTT in MP4), which are not read yet: their cues are not checked"

    /// The subtitle renditions whose segments are fragmented MP4 (not read).
    public var fragmentedSubtitleRenditions: [HLSRendition] {
        subtitleRenditions.filter { rendition in
            rendition.uri.flatMap { mediaPlaylists[$0] }?.segments.contains { $0.initSection != nil } == true
        }
    }

    /// How reports name a subtitle timeline: its rendition's playlist (a media playlist given on its own: the package).
    public func label(of timeline: SubtitleTimeline) -> String { timeline.rendition.map(label(of:)) ?? path }

    /// How reports name a rendition: its playlist's path beside the package's.
    public func label(of rendition: HLSRendition) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let uri = rendition.uri ?? rendition.name
        return folder.isEmpty ? uri : folder + "/" + uri
    }

    /// Each subtitle rendition whose playlist was read, with its joined timeline: read once, for every check that
    /// needs them.
    public func subtitleTimelines() -> [SubtitleTimeline] {
        subtitleRenditions.compactMap { rendition in
            guard let uri = rendition.uri, mediaPlaylists[uri] != nil else { return nil }
            return try? subtitleTimeline(rendition)
        }
    }
}

extension HLSPackage {
    /// The files that carry `variant`'s audio when its own do not: those of its audio group's default (or first)
    /// rendition.
    func audio(of variant: HLSVariant, in playlist: HLSMultivariantPlaylist) -> MediaFiles {
        guard let group = variant.audioGroup else { return MediaFiles() }
        let renditions = playlist.renditions(type: .audio, group: group)
        guard let uri = (renditions.first { $0.isDefault } ?? renditions.first)?.uri else { return MediaFiles() }
        return mediaFiles(ofPlaylist: uri)
    }

    /// The video's duration: the first variant's playlist's.
    public var duration: Double? {
        guard case .multivariant(let playlist) = self.playlist, let variant = playlist.variants.first else { return nil }
        return mediaPlaylists[variant.uri]?.duration
    }

    /// "segment a.ts", "2 segments (a.ts, b.ts)", "12 segments (a.ts, b.ts, c.ts …)".
    package static func describe(_ files: [MediaFiles.Unreadable]) -> String {
        let names = files.prefix(3).map(\.uri).joined(separator: ", ") + (files.count > 3 ? " …" : "")
        return files.count == 1 ? "segment \(names)" : "\(files.count) segments (\(names))"
    }
}

extension HLSMultivariantPlaylist {
    /// The playlist's inventory, a package result's metrics: every rendition and every variant's groups.
    public var inventory: CaptionsMetrics {
        CaptionsMetrics(
            renditions: renditions.map { rendition in
                CaptionsMetrics.Rendition(
                    type: rendition.type?.rawValue, group: rendition.groupID, name: rendition.name, language: rendition.language,
                    default: rendition.isDefault, autoselect: rendition.autoselect, forced: rendition.forced,
                    characteristics: rendition.characteristics, instreamID: rendition.instreamID, uri: rendition.uri)
            },
            variants: variants.map { variant in
                CaptionsMetrics.Variant(
                    uri: variant.uri, bandwidth: variant.bandwidth, audio: variant.audioGroup, subtitles: variant.subtitlesGroup,
                    closedCaptions: variant.closedCaptionsNone ? "NONE" : variant.closedCaptionsGroup)
            })
    }
}
