import Basics
import Findings

/// What an HLS package's playlists say about its accessibility, checked against RFC 8216 and Apple's HLS authoring
/// rules: captions or subtitles present, accessibility characteristics on the renditions that provide them,
/// renditions that exist, subtitle playlists as long as the video's. Pure: the caller reads the playlists (inside
/// the package only) and hands them over.
public enum HLSPackageReview {
    /// The characteristics of subtitles for the deaf and hard of hearing (Apple's HLS authoring specification).
    public static let transcribesSpokenDialog = "public.accessibility.transcribes-spoken-dialog"
    public static let describesMusicAndSound = "public.accessibility.describes-music-and-sound"
    /// The characteristic of an audio-description rendition.
    public static let describesVideo = "public.accessibility.describes-video"

    /// The findings of a package: its multivariant playlist (at `playlistPath`, relative to the package's folder),
    /// the media playlists read (by URI as the multivariant playlist writes it) and those that could not be (URI →
    /// why). A finding about a URI that leaves the package is said as such (`hls.reference`), not as its rule's.
    public static func review(
        _ playlist: HLSMultivariantPlaylist, playlistPath: String = "", mediaPlaylists: [String: HLSMediaPlaylist], unreadable: [String: String]
    ) -> [Finding] {
        var findings: [Finding] = []
        func add(_ rule: Rule, message: String, uri: String?, line: Int?) {
            if let uri, case .refused(let reason) = HLSReference.resolve(uri, inPlaylistAt: playlistPath) {
                findings.append(Rule.hlsReference.finding(message: reason, line: line))
            } else {
                findings.append(rule.finding(message: message, line: line))
            }
        }
        // Captions at all (WCAG 1.2.2, KWCAG 1.2): every variant needs a subtitle group with renditions or declared
        // 608 captions.
        for variant in playlist.variants {
            let subtitles = variant.subtitlesGroup.map { playlist.renditions(type: .subtitles, group: $0) } ?? []
            let closedCaptions = variant.closedCaptionsGroup.map { playlist.renditions(type: .closedCaptions, group: $0) } ?? []
            if subtitles.isEmpty && closedCaptions.isEmpty {
                add(
                    .hlsCaptionsMissing,
                    message: "variant \(variant.uri) has no subtitle rendition and no declared CEA-608 captions (SUBTITLES, CLOSED-CAPTIONS)",
                    uri: variant.uri, line: variant.line)
            }
            // Groups named but not defined.
            for (kind, group) in [
                (HLSRendition.MediaType.audio, variant.audioGroup), (.video, variant.videoGroup), (.subtitles, variant.subtitlesGroup),
                (.closedCaptions, variant.closedCaptionsGroup),
            ] {
                guard let group, playlist.renditions(type: kind, group: group).isEmpty else { continue }
                add(
                    .hlsRenditionMissing, message: "variant \(variant.uri) names the \(kind.rawValue) group \"\(group)\", which has no rendition",
                    uri: variant.uri,
                    line: variant.line)
            }
        }
        // At most one DEFAULT=YES in a group (RFC 8216 §4.3.4.1.1): with two, players pick either.
        var seenGroups = Set<String>()
        for rendition in playlist.renditions where rendition.isDefault {
            guard let type = rendition.type, seenGroups.insert(type.rawValue + " " + rendition.groupID).inserted else { continue }
            let defaults = playlist.renditions(type: type, group: rendition.groupID).filter(\.isDefault)
            if defaults.count > 1 {
                add(
                    .hlsRenditionDefault,
                    message:
                        "the \(type.rawValue) group \"\(rendition.groupID)\" has \(defaults.count) renditions with DEFAULT=YES (\(defaults.map { "\"\($0.name)\"" }.joined(separator: ", "))): at most one may have it, so players choose either",
                    uri: nil, line: defaults[1].line)
            }
        }
        for rendition in playlist.renditions {
            if let uri = rendition.uri, let reason = unreadable[uri] {
                add(
                    .hlsRenditionMissing, message: "rendition \"\(rendition.name)\": \(uri): \(reason)", uri: uri,
                    line: rendition.line)
            }
            switch rendition.type {
            case .subtitles where isForTheDeafAndHardOfHearing(rendition):
                let missing = [transcribesSpokenDialog, describesMusicAndSound].filter { !rendition.characteristics.contains($0) }
                if !missing.isEmpty {
                    add(
                        .hlsSDHCharacteristics,
                        message:
                            "subtitles \"\(rendition.name)\" are for the deaf and hard of hearing but CHARACTERISTICS lacks \(missing.joined(separator: " and ")): players cannot select them from the accessibility settings",
                        uri: rendition.uri, line: rendition.line)
                }
            case .audio where isAudioDescription(rendition) && !rendition.characteristics.contains(describesVideo):
                add(
                    .hlsAudioDescriptionCharacteristics, message: "audio \"\(rendition.name)\" describes the video but CHARACTERISTICS lacks \(describesVideo)",
                    uri: rendition.uri,
                    line: rendition.line)
            default: break
            }
        }
        // A subtitle playlist as long as the video (within a segment). A live playlist (no EXT-X-ENDLIST) is a
        // window that slides or grows: its length says nothing yet.
        let videoDurations = playlist.variants.compactMap { mediaPlaylists[$0.uri].map { ($0.duration, $0.targetDuration, $0.ended) } }
        if let (videoDuration, target, videoEnded) = videoDurations.first, videoEnded {
            for rendition in playlist.renditions where rendition.type == .subtitles {
                guard let uri = rendition.uri, let subtitles = mediaPlaylists[uri], subtitles.ended else { continue }
                let allowed = Double(max(target ?? 0, subtitles.targetDuration ?? 0, 1))
                if abs(subtitles.duration - videoDuration) > allowed {
                    add(
                        .hlsSubtitleDuration,
                        message:
                            "subtitles \"\(rendition.name)\" last \(format(subtitles.duration)) s, the video \(format(videoDuration)) s: more than a segment (\(Int(allowed)) s) apart",
                        uri: uri, line: rendition.line)
                }
            }
        }
        return findings
    }

    /// Subtitles meant for the deaf and hard of hearing: one of the two characteristics, or a name that says so
    /// (`SDH`, `CC`, `hard of hearing`, `deaf`).
    public static func isForTheDeafAndHardOfHearing(_ rendition: HLSRendition) -> Bool {
        if rendition.characteristics.contains(transcribesSpokenDialog) || rendition.characteristics.contains(describesMusicAndSound) { return true }
        let words = rendition.name.lowercased().split(whereSeparator: { !$0.isLetter })
        return words.contains("sdh") || words.contains("cc") || words.contains("deaf") || rendition.name.lowercased().contains("hard of hearing")
    }

    /// Audio that describes the video: the characteristic, or a name that says so (`AD`, `audio description`,
    /// `described`, `descriptive`).
    public static func isAudioDescription(_ rendition: HLSRendition) -> Bool {
        if rendition.characteristics.contains(describesVideo) { return true }
        let name = rendition.name.lowercased()
        let words = name.split(whereSeparator: { !$0.isLetter })
        return words.contains("ad") || name.contains("audio description") || words.contains("described") || words.contains("descriptive")
    }

    private static func format(_ seconds: Double) -> String {
        let tenths = (seconds * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }
}

/// Where a playlist's URI may be read: a relative path inside the package's folder, nothing else.
public enum HLSReference: Sendable, Equatable {
    /// A path relative to the package's folder (normalised: no `.` or `..`).
    case inside(String)
    /// A network address, an absolute path or a path leaving the folder: a finding, never a read.
    case refused(String)

    /// Classifies `uri`, found in the playlist at `playlistPath` (relative to the package's folder).
    public static func resolve(_ uri: String, inPlaylistAt playlistPath: String) -> HLSReference {
        let trimmed = uri.trimmingSpaces()
        if let colon = trimmed.firstIndex(of: ":"), trimmed[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }),
            !trimmed[..<colon].isEmpty
        {
            return .refused("\(uri) is a network or other address (\(trimmed[..<colon])), not a file of the package")
        }
        if trimmed.hasPrefix("/") || trimmed.hasPrefix("\\") { return .refused("\(uri) is an absolute path, outside the package") }
        if trimmed.contains("?") || trimmed.contains("#") { return .refused("\(uri) has a query or fragment: not a plain file of the package") }
        var parts = playlistPath.split(separator: "/").dropLast().map(String.init)
        for part in trimmed.removingPercentEscapes().split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return .refused("\(uri) leaves the package's folder") }
                parts.removeLast()
            default: parts.append(String(part))
            }
        }
        guard !parts.isEmpty else { return .refused("\(uri) names no file") }
        return .inside(parts.joined(separator: "/"))
    }
}

extension String {
    /// `%2F`-style escapes decoded (invalid ones kept as written).
    func removingPercentEscapes() -> String {
        var bytes: [UInt8] = []
        var iterator = Array(utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
