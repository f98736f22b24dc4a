import Basics
import Captions
import Findings
import Foundation
import Streaming

/// The `captions` check of an HLS package: its playlists against RFC 8216 and Apple's HLS authoring rules
/// (`hls.*`: captions present, renditions present, accessibility characteristics, BCP 47 languages, URIs inside the
/// package, subtitle playlists as long as the video), and each subtitle rendition's segments readable.
public struct HLSPackageCheck: Sendable {
    public init() {}

    /// The result for `package`, its subtitle `timelines` (by default read here) checked for unreadable segments.
    public func run(_ package: HLSPackage, timelines: [(rendition: HLSRendition, document: CaptionDocument)]? = nil) -> CheckResult {
        var findings: [Finding] = []
        guard case .multivariant(let playlist) = package.playlist else {
            return CheckResult(file: package.path, check: .captions, findings: [])
        }
        for issue in HLSPackageReview.review(playlist, mediaPlaylists: package.mediaPlaylists, unreadable: package.unreadable) {
            guard let rule = RuleCatalogue.byID[issue.rule] else { continue }
            // A URI that leaves the package is said as such, not as a missing rendition.
            if let uri = issue.uri, case .refused(let reason) = HLSReference.resolve(uri, inPlaylistAt: (package.path as NSString).lastPathComponent) {
                findings.append(Rule.hlsReference.finding(message: reason, line: issue.line))
                continue
            }
            findings.append(rule.finding(severity: Severity(issue.severity), message: issue.message, line: issue.line))
        }
        for variant in playlist.variants {
            if case .refused(let reason) = HLSReference.resolve(variant.uri, inPlaylistAt: (package.path as NSString).lastPathComponent) {
                findings.append(Rule.hlsReference.finding(message: reason, line: variant.line))
            } else if let reason = package.unreadable[variant.uri] {
                findings.append(Rule.hlsRenditionMissing.finding(message: "variant \(variant.uri): \(reason)", line: variant.line))
            }
        }
        for rendition in playlist.renditions {
            for (attribute, value) in [("LANGUAGE", rendition.language), ("ASSOC-LANGUAGE", rendition.associatedLanguage)] {
                guard let value, !SidecarTags.isLanguageTag(value.lowercased()) else { continue }
                findings.append(
                    Rule.hlsLanguage.finding(message: "rendition \"\(rendition.name)\": \(attribute) \"\(value)\" is not a BCP 47 tag", line: rendition.line))
            }
        }
        // Declared 608 captions the video carries: each INSTREAM-ID CC1–CC4 looked for in the first variant's segments.
        for rendition in playlist.renditions where rendition.type == .closedCaptions {
            guard let id = rendition.instreamID else { continue }
            guard id.hasPrefix("CC"), let number = Int(id.dropFirst(2)), let channel = CEA608Decoder.Channel(rawValue: number) else {
                findings.append(
                    Rule.hlsInstreamID.finding(
                        severity: .info, message: "closed captions \"\(rendition.name)\": INSTREAM-ID \(id) (CEA-708) not verified: only 608 channels are read",
                        line: rendition.line))
                continue
            }
            switch package.videoCarries(channel) {
            case false?:
                findings.append(
                    Rule.hlsInstreamID.finding(
                        message: "closed captions \"\(rendition.name)\": INSTREAM-ID \(id), but no segment of the video carries 608 captions on \(id)",
                        line: rendition.line))
            case nil:
                findings.append(
                    Rule.hlsInstreamID.finding(
                        severity: .info, message: "closed captions \"\(rendition.name)\": INSTREAM-ID \(id) not verified: no video segment could be read",
                        line: rendition.line))
            case true?: break
            }
        }
        // Media segments that cannot be read (they are left out of the stream the other checks decode).
        let media =
            playlist.variants.map { (uri: $0.uri, name: "variant \($0.uri)", line: $0.line) }
            + playlist.renditions.filter { $0.type == .audio || $0.type == .video }.compactMap { rendition in
                rendition.uri.map { (uri: $0, name: "\(rendition.type?.rawValue.lowercased() ?? "") \"\(rendition.name)\"", line: rendition.line) }
            }
        var seen = Set<String>()
        for (uri, name, line) in media where seen.insert(uri).inserted && package.mediaPlaylists[uri] != nil {
            let unreadable = package.mediaFiles(ofPlaylist: uri).unreadable
            for file in unreadable.prefix(Self.unreadableSegmentsSaid) {
                let rule: Rule = file.leavesPackage ? .hlsReference : .hlsSegment
                findings.append(rule.finding(message: "\(name): \(file.uri): \(file.reason): left out", line: line))
            }
            if unreadable.count > Self.unreadableSegmentsSaid {
                findings.append(
                    Rule.hlsSegment.finding(message: "\(name): \(unreadable.count - Self.unreadableSegmentsSaid) more segments cannot be read", line: line))
            }
        }
        for rendition in package.fragmentedSubtitleRenditions {
            findings.append(
                Rule.hlsSegment.finding(severity: .info, message: "subtitles \"\(rendition.name)\": \(HLSPackage.fragmentedSubtitles)", line: rendition.line))
        }
        for (rendition, document) in timelines ?? package.subtitleTimelines() {
            for diagnostic in document.diagnostics {
                let rule: Rule
                switch diagnostic.rule {
                case "hls.segment": rule = .hlsSegment
                case "hls.reference": rule = .hlsReference
                case "hls.timestamp-map": rule = .hlsTimestampMap
                default: continue
                }
                findings.append(rule.finding(message: "subtitles \"\(rendition.name)\": \(diagnostic.message)"))
            }
        }
        return CheckResult(file: package.path, check: .captions, findings: findings, metrics: Self.inventory(playlist))
    }

    /// Unreadable segments said one by one for a playlist; past these, counted.
    static let unreadableSegmentsSaid = 10

    /// The package's inventory, for the result's metrics: every rendition (type, group, name, language, the DEFAULT,
    /// AUTOSELECT and FORCED flags, characteristics, INSTREAM-ID) and every variant's groups.
    static func inventory(_ playlist: HLSMultivariantPlaylist) -> JSONValue {
        func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        let renditions = playlist.renditions.map { rendition -> JSONValue in
            .object([
                ("type", optional(rendition.type?.rawValue)), ("group", .string(rendition.groupID)), ("name", .string(rendition.name)),
                ("language", optional(rendition.language)), ("default", .bool(rendition.isDefault)), ("autoselect", .bool(rendition.autoselect)),
                ("forced", .bool(rendition.forced)), ("characteristics", .array(rendition.characteristics.map(JSONValue.string))),
                ("instreamID", optional(rendition.instreamID)), ("uri", optional(rendition.uri)),
            ])
        }
        let variants = playlist.variants.map { variant -> JSONValue in
            .object([
                ("uri", .string(variant.uri)), ("bandwidth", variant.bandwidth.map { .integer(Int64($0)) } ?? .null),
                ("audio", optional(variant.audioGroup)), ("subtitles", optional(variant.subtitlesGroup)),
                ("closedCaptions", variant.closedCaptionsNone ? .string("NONE") : optional(variant.closedCaptionsGroup)),
            ])
        }
        return .object([("renditions", .array(renditions)), ("variants", .array(variants))])
    }
}

extension Severity {
    init(_ severity: HLSPackageIssue.Severity) {
        switch severity {
        case .error: self = .error
        case .warning: self = .warning
        case .info: self = .info
        }
    }
}
