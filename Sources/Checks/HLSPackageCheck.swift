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
    public func run(_ package: HLSPackage, timelines: [HLSPackage.SubtitleTimeline]? = nil) -> CheckResult {
        guard case .multivariant(let playlist) = package.playlist else {
            return CheckResult(file: package.path, check: .captions, findings: [])
        }
        var findings = HLSPackageReview.review(
            playlist, playlistPath: (package.path as NSString).lastPathComponent, mediaPlaylists: package.mediaPlaylists, unreadable: package.unreadable)
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
        for timeline in timelines ?? package.subtitleTimelines() {
            let name = timeline.rendition?.name ?? ""
            findings += timeline.findings.map { finding in
                var finding = finding
                finding.message = "subtitles \"\(name)\": \(finding.message)"
                return finding
            }
        }
        return CheckResult(file: package.path, findings: findings, metrics: playlist.inventory)
    }

    /// Unreadable segments said one by one for a playlist; past these, counted.
    static let unreadableSegmentsSaid = 10
}
