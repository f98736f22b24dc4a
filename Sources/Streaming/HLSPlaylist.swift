import Basics
import Captions

/// An HLS playlist (RFC 8216 and its successor draft): a multivariant playlist — renditions and variant streams — or a
/// media playlist — segments. Read leniently: what is malformed is noted with its line (`diagnostics`), never fatal,
/// except a file that does not start with `#EXTM3U`.
public enum HLSPlaylist: Sendable, Equatable {
    case multivariant(HLSMultivariantPlaylist)
    case media(HLSMediaPlaylist)

    /// The longest `#EXTINF` duration taken (a day, in seconds): a longer one is a mistake or an attack, and sums of
    /// such durations would leave every time behind.
    static let longestSegment = 86_400.0

    /// Parses playlist text (UTF-8, a byte order mark allowed; lines end in LF or CR LF).
    public static func parse(_ bytes: [UInt8]) throws(HLSError) -> HLSPlaylist {
        var text = String(decoding: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes, as: UTF8.self)
        text = text.replacingCRLF()
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.first, first.trimmingSpaces() == "#EXTM3U" else {
            throw HLSError(line: 1, message: "not an HLS playlist: the first line is not #EXTM3U")
        }
        lines.removeFirst()
        var diagnostics: [HLSDiagnostic] = []
        func note(_ line: Int, _ message: String) {
            if diagnostics.count < 1000 { diagnostics.append(HLSDiagnostic(line: line, message: message)) }
        }
        let isMultivariant = lines.contains { $0.hasPrefix("#EXT-X-STREAM-INF") || $0.hasPrefix("#EXT-X-MEDIA:") }
        let isMedia = lines.contains { $0.hasPrefix("#EXTINF") || $0.hasPrefix("#EXT-X-TARGETDURATION") }
        if isMultivariant && isMedia { note(0, "the playlist has both variant streams and segments (a multivariant playlist holds no segments)") }
        if isMultivariant {
            var playlist = HLSMultivariantPlaylist()
            var pending: (attributes: HLSAttributeList, line: Int)? = nil
            for (offset, raw) in lines.enumerated() {
                let number = offset + 2
                let line = raw.trimmingSpaces()
                if line.isEmpty { continue }
                if let value = line.tagValue("#EXT-X-VERSION") {
                    playlist.version = Int(value)
                } else if let value = line.tagValue("#EXT-X-MEDIA") {
                    let attributes = HLSAttributeList.parse(value, line: number, note: note)
                    playlist.renditions.append(HLSRendition(attributes, line: number, note: note))
                } else if let value = line.tagValue("#EXT-X-STREAM-INF") {
                    if pending != nil { note(number, "#EXT-X-STREAM-INF without a URI line after the one before") }
                    pending = (HLSAttributeList.parse(value, line: number, note: note), number)
                } else if let value = line.tagValue("#EXT-X-I-FRAME-STREAM-INF") {
                    let attributes = HLSAttributeList.parse(value, line: number, note: note)
                    if let uri = attributes.string("URI") { playlist.iFrameStreams.append(uri) }
                } else if line.hasPrefix("#") {
                    continue  // other tags and comments
                } else if let (attributes, at) = pending {
                    playlist.variants.append(HLSVariant(attributes, uri: line, line: at, note: note))
                    pending = nil
                } else {
                    note(number, "a URI line (`\(line.prefix(80))`) not after #EXT-X-STREAM-INF is ignored")
                }
            }
            if let pending { note(pending.line, "#EXT-X-STREAM-INF without a URI line") }
            return .multivariant(playlist.with(diagnostics: diagnostics))
        }
        var playlist = HLSMediaPlaylist()
        var duration: Double? = nil
        var title = ""
        var discontinuity = false
        var timestamp = 0.0
        var initSection: String?
        var byteRange = false
        for (offset, raw) in lines.enumerated() {
            let number = offset + 2
            let line = raw.trimmingSpaces()
            if line.isEmpty { continue }
            if let value = line.tagValue("#EXTINF") {
                let parts = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
                if let seconds = Double(parts[0].trimmingSpaces()), seconds >= 0, seconds <= HLSPlaylist.longestSegment {
                    duration = seconds
                    title = parts.count > 1 ? String(parts[1]) : ""
                } else if let seconds = Double(parts[0].trimmingSpaces()), seconds > HLSPlaylist.longestSegment {
                    note(number, "#EXTINF duration `\(parts[0].prefix(40))` is longer than a segment can be (a day); the segment is left out")
                    duration = nil
                } else {
                    note(number, "#EXTINF duration `\(parts[0].prefix(40))` is not a number; the segment is left out")
                    duration = nil
                }
            } else if let value = line.tagValue("#EXT-X-TARGETDURATION") {
                playlist.targetDuration = Int(value)
                if playlist.targetDuration == nil { note(number, "#EXT-X-TARGETDURATION `\(value.prefix(40))` is not a whole number") }
            } else if let value = line.tagValue("#EXT-X-MEDIA-SEQUENCE") {
                playlist.mediaSequence = Int(value) ?? 0
            } else if let value = line.tagValue("#EXT-X-VERSION") {
                playlist.version = Int(value)
            } else if let value = line.tagValue("#EXT-X-PLAYLIST-TYPE") {
                playlist.playlistType = value
            } else if line == "#EXT-X-ENDLIST" {
                playlist.ended = true
            } else if line == "#EXT-X-DISCONTINUITY" {
                discontinuity = true
            } else if let value = line.tagValue("#EXT-X-MAP") {
                let attributes = HLSAttributeList.parse(value, line: number, note: note)
                initSection = attributes.string("URI")
                if initSection == nil { note(number, "#EXT-X-MAP without a URI") }
                if let initSection, attributes.string("BYTERANGE") != nil {
                    note(number, "#EXT-X-MAP with a BYTERANGE: the whole file \(initSection) is read as the initialisation section")
                }
            } else if line.tagValue("#EXT-X-BYTERANGE") != nil {
                byteRange = true
            } else if line.hasPrefix("#") {
                continue
            } else if let seconds = duration {
                let sequence = (playlist.segments.last?.discontinuitySequence ?? 0) + (discontinuity && !playlist.segments.isEmpty ? 1 : 0)
                playlist.segments.append(
                    HLSSegment(
                        uri: line, duration: seconds, start: timestamp, title: title, discontinuity: discontinuity, line: number, initSection: initSection,
                        isByteRange: byteRange, continuesFile: byteRange && playlist.segments.last?.uri == line, discontinuitySequence: sequence))
                timestamp += seconds
                duration = nil
                discontinuity = false
                byteRange = false
            } else {
                note(number, "a URI line (`\(line.prefix(80))`) without #EXTINF before it is ignored")
            }
        }
        if !playlist.segments.isEmpty, let target = playlist.targetDuration,
            let longest = playlist.segments.max(by: { $0.duration < $1.duration }), longest.duration.rounded() > Double(target)
        {
            note(longest.line, "a segment of \(longest.duration) s is longer than #EXT-X-TARGETDURATION (\(target) s)")
        }
        playlist.diagnostics = diagnostics
        return .media(playlist)
    }
}

/// A playlist that is not one at all.
public struct HLSError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { message }
}

/// Something malformed in a playlist, with its line (0: the playlist as a whole).
public struct HLSDiagnostic: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { line > 0 ? "line \(line): \(message)" : message }
}

/// A multivariant playlist: its renditions (`EXT-X-MEDIA`) and variant streams (`EXT-X-STREAM-INF`).
public struct HLSMultivariantPlaylist: Sendable, Equatable {
    public var version: Int?
    public var renditions: [HLSRendition] = []
    public var variants: [HLSVariant] = []
    /// URIs of I-frame playlists.
    public var iFrameStreams: [String] = []
    public var diagnostics: [HLSDiagnostic] = []

    public init() {}

    func with(diagnostics: [HLSDiagnostic]) -> HLSMultivariantPlaylist {
        var copy = self
        copy.diagnostics = diagnostics
        return copy
    }

    /// The renditions of a type in a group.
    public func renditions(type: HLSRendition.MediaType, group: String) -> [HLSRendition] {
        renditions.filter { $0.type == type && $0.groupID == group }
    }
}

/// An `EXT-X-MEDIA` rendition.
public struct HLSRendition: Sendable, Equatable {
    public enum MediaType: String, Sendable {
        case audio = "AUDIO", video = "VIDEO", subtitles = "SUBTITLES", closedCaptions = "CLOSED-CAPTIONS"
    }

    /// Nil when TYPE is missing or not one of the four.
    public var type: MediaType?
    public var groupID: String
    public var name: String
    public var language: String?
    public var associatedLanguage: String?
    public var uri: String?
    public var isDefault: Bool
    public var autoselect: Bool
    public var forced: Bool
    /// CLOSED-CAPTIONS: `CC1`…`CC4` or `SERVICE1`…`SERVICE63`.
    public var instreamID: String?
    /// Uniform Type Identifiers, e.g. `public.accessibility.transcribes-spoken-dialog`.
    public var characteristics: [String]
    public var line: Int

    init(_ attributes: HLSAttributeList, line: Int, note: (Int, String) -> Void) {
        let typeValue = attributes.enumerated("TYPE")
        type = typeValue.flatMap(MediaType.init(rawValue:))
        if type == nil { note(line, "#EXT-X-MEDIA TYPE `\(typeValue ?? "")` is not AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS") }
        groupID = attributes.string("GROUP-ID") ?? ""
        if groupID.isEmpty { note(line, "#EXT-X-MEDIA without GROUP-ID") }
        name = attributes.string("NAME") ?? ""
        if name.isEmpty { note(line, "#EXT-X-MEDIA without NAME") }
        language = attributes.string("LANGUAGE")
        associatedLanguage = attributes.string("ASSOC-LANGUAGE")
        uri = attributes.string("URI")
        isDefault = attributes.enumerated("DEFAULT") == "YES"
        autoselect = attributes.enumerated("AUTOSELECT") == "YES"
        forced = attributes.enumerated("FORCED") == "YES"
        instreamID = attributes.string("INSTREAM-ID")
        characteristics = (attributes.string("CHARACTERISTICS") ?? "").split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        self.line = line
        if type == .closedCaptions, uri != nil { note(line, "a CLOSED-CAPTIONS rendition has a URI (it must not: its captions are in the video)") }
        if type == .closedCaptions, instreamID == nil { note(line, "a CLOSED-CAPTIONS rendition without INSTREAM-ID") }
        if type == .subtitles, uri == nil { note(line, "a SUBTITLES rendition without URI") }
    }
}

/// An `EXT-X-STREAM-INF` variant stream and its URI.
public struct HLSVariant: Sendable, Equatable {
    public var uri: String
    public var bandwidth: Int?
    public var codecs: [String]
    public var resolution: (width: Int, height: Int)?
    public var audioGroup: String?
    public var videoGroup: String?
    public var subtitlesGroup: String?
    /// CLOSED-CAPTIONS: a group id; nil when absent; `closedCaptionsNone` when `NONE`.
    public var closedCaptionsGroup: String?
    public var closedCaptionsNone: Bool
    public var line: Int

    init(_ attributes: HLSAttributeList, uri: String, line: Int, note: (Int, String) -> Void) {
        self.uri = uri
        bandwidth = attributes.integer("BANDWIDTH")
        if bandwidth == nil { note(line, "#EXT-X-STREAM-INF without BANDWIDTH") }
        codecs = (attributes.string("CODECS") ?? "").split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        resolution = attributes.resolution("RESOLUTION")
        audioGroup = attributes.string("AUDIO")
        videoGroup = attributes.string("VIDEO")
        subtitlesGroup = attributes.string("SUBTITLES")
        closedCaptionsNone = attributes.enumerated("CLOSED-CAPTIONS") == "NONE"
        closedCaptionsGroup = closedCaptionsNone ? nil : attributes.string("CLOSED-CAPTIONS")
        self.line = line
    }

    public static func == (lhs: HLSVariant, rhs: HLSVariant) -> Bool {
        lhs.uri == rhs.uri && lhs.bandwidth == rhs.bandwidth && lhs.codecs == rhs.codecs && lhs.resolution?.width == rhs.resolution?.width
            && lhs.resolution?.height == rhs.resolution?.height && lhs.audioGroup == rhs.audioGroup && lhs.videoGroup == rhs.videoGroup
            && lhs.subtitlesGroup == rhs.subtitlesGroup && lhs.closedCaptionsGroup == rhs.closedCaptionsGroup
            && lhs.closedCaptionsNone == rhs.closedCaptionsNone && lhs.line == rhs.line
    }
}

/// A media playlist: its segments in order.
public struct HLSMediaPlaylist: Sendable, Equatable {
    public var version: Int?
    public var targetDuration: Int?
    public var mediaSequence = 0
    /// `VOD` or `EVENT`, when given.
    public var playlistType: String?
    /// `#EXT-X-ENDLIST` seen: no more segments will be added.
    public var ended = false
    public var segments: [HLSSegment] = []
    public var diagnostics: [HLSDiagnostic] = []

    public init() {}

    /// The sum of the segments' durations.
    public var duration: Double { segments.reduce(0) { $0 + $1.duration } }
}

/// One media segment.
public struct HLSSegment: Sendable, Equatable {
    public var uri: String
    /// `#EXTINF` seconds.
    public var duration: Double
    /// Seconds from the playlist's start (the durations before it added up).
    public var start: Double
    public var title: String
    /// `#EXT-X-DISCONTINUITY` before it.
    public var discontinuity: Bool
    public var line: Int
    /// The URI of the `#EXT-X-MAP` in force: the initialisation section (a fragmented MP4's `moov`) that goes before it.
    public var initSection: String? = nil
    /// `#EXT-X-BYTERANGE`: the segment is a part of its file (consecutive parts of one file make it whole).
    public var isByteRange = false
    /// A byte range of the same file as the segment before: reading that file read this one too.
    public var continuesFile = false
    /// How many `#EXT-X-DISCONTINUITY` tags come before it (after the first segment): segments of one sequence have
    /// continuous timestamps.
    public var discontinuitySequence = 0
}

/// An attribute list (`NAME=value,NAME="quoted, string"`) as RFC 8216 §4.2 defines it.
struct HLSAttributeList {
    private(set) var values: [(name: String, value: String, quoted: Bool)] = []

    static func parse(_ text: String, line: Int, note: (Int, String) -> Void) -> HLSAttributeList {
        var list = HLSAttributeList()
        // The names seen, for duplicates in constant time (a searched list made long lists quadratic).
        var seen = Set<String>()
        var index = text.startIndex
        while index < text.endIndex {
            guard let equals = text[index...].firstIndex(of: "=") else {
                note(line, "attribute `\(text[index...].prefix(40))` has no value")
                break
            }
            let name = text[index..<equals].trimmingSpaces()
            var cursor = text.index(after: equals)
            var value = ""
            var quoted = false
            if cursor < text.endIndex, text[cursor] == "\"" {
                quoted = true
                let start = text.index(after: cursor)
                guard let close = text[start...].firstIndex(of: "\"") else {
                    note(line, "attribute \(name)'s quoted string is not closed")
                    value = String(text[start...])
                    list.values.append((name, value, true))
                    break
                }
                value = String(text[start..<close])
                cursor = text.index(after: close)
                if let comma = text[cursor...].firstIndex(of: ",") { cursor = comma } else { cursor = text.endIndex }
            } else {
                let end = text[cursor...].firstIndex(of: ",") ?? text.endIndex
                value = text[cursor..<end].trimmingSpaces()
                cursor = end
            }
            if !seen.insert(name).inserted {
                note(line, "attribute \(name) appears twice; the first is used")
            } else {
                list.values.append((name, value, quoted))
            }
            index = cursor < text.endIndex ? text.index(after: cursor) : text.endIndex
        }
        return list
    }

    func string(_ name: String) -> String? { values.first { $0.name == name }?.value }
    func enumerated(_ name: String) -> String? { values.first { $0.name == name && !$0.quoted }?.value }
    func integer(_ name: String) -> Int? { string(name).flatMap { Int($0) } }

    func resolution(_ name: String) -> (width: Int, height: Int)? {
        guard let value = string(name) else { return nil }
        let parts = value.split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        return (width, height)
    }
}

extension StringProtocol {
    /// For `#TAG:value`, the value; for a bare `#TAG`, "".
    func tagValue(_ tag: String) -> String? {
        guard hasPrefix(tag) else { return nil }
        let rest = dropFirst(tag.count)
        if rest.isEmpty { return "" }
        guard rest.first == ":" else { return nil }
        return String(rest.dropFirst())
    }
}

extension String {
    func replacingCRLF() -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for character in self {
            if character == "\r\n" { result.append("\n") } else { result.append(character) }
        }
        return result
    }
}
