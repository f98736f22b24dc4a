import Findings
import Foundation
import MediaIO

/// The `captions` check of one media file: whether its speech has captions (WCAG 1.2.2, KWCAG 1.2) or, for audio
/// only, a transcript (WCAG 1.2.1); whether video has an audio-description track (WCAG 1.2.5); and the inventory of
/// what it has (caption files and tracks, transcripts, description tracks, seconds of speech) as metrics.
public struct CaptionsCheck: Sendable {
    public init() {}

    /// The result for the media at `path` (described by `info`), given its caption sources and the speech found in
    /// its audio (nil with `speechError` when the audio could not be decoded, nil alone when it has none).
    public func run(
        path: String, media info: MediaInfo, sources: [CaptionSource], speech: MediaSpeech?,
        speechError: MediaError?
    ) -> CheckResult {
        var findings = sources.compactMap { source in
            source.problem.map { Rule.captionsParse.finding(severity: .error, message: $0) }
        }
        let hasCaptions = sources.contains { $0.document != nil }
        let captionTracks =
            info.textSubtitleTracks + info.streams(of: .subtitle).filter { $0.subtitle?.isText != true } + info.closedCaptionVideoTracks
        let descriptions = info.streams(of: .audio).filter { $0.dispositions.contains("visual_impaired") || $0.dispositions.contains("descriptions") }
        let transcripts = Self.transcripts(for: path)
        let inventory = CaptionsMetrics(
            captionFiles: sources.compactMap { if case .file(let file) = $0.origin { file } else { nil } },
            captionTracks: captionTracks.map { track in
                CaptionsMetrics.Track(
                    index: track.index, language: track.language, hearingImpaired: track.dispositions.contains("hearing_impaired"),
                    text: track.subtitle?.isText == true || track.kind == .video)
            },
            audioDescriptionTracks: descriptions.map(\.index), transcripts: transcripts, speechSeconds: speech?.timeline.clearSpeechSeconds)
        if let speechError {
            findings.append(Rule.mediaUnreadable.finding(severity: .error, message: "the audio cannot be decoded: \(speechError.reason)"))
        }
        let hasVideo = info.hasPictureVideo
        // Speech that clearly sounds like it: music, a chime or an effect alone is not (`clearSpeech`).
        if let speechSeconds = speech?.timeline.clearSpeechSeconds, speechSeconds >= 1 {
            let seconds = String(format: "%.1f", speechSeconds)
            if hasVideo, !hasCaptions {
                findings.append(CaptionPresence.missingCaptions(speechSeconds: speechSeconds, unread: CaptionSidecars.findUnread(for: path)))
            } else if !hasVideo, !hasCaptions, transcripts.isEmpty {
                findings.append(
                    Rule.transcriptMissing.finding(
                        message: "\(seconds) s of speech in audio-only media and no transcript or captions next to it (name.txt, name.vtt …)"))
            }
        }
        if hasVideo, descriptions.isEmpty {
            findings.append(
                Rule.captionsAudioDescription.finding(
                    message: "no audio-description track (an audio stream marked visual_impaired or descriptions)"))
        }
        return CheckResult(file: path, findings: findings, metrics: inventory)
    }

    /// Transcript files next to a media file: `name.txt`, `name.transcript.*`, `name.md`, `name.html`.
    static func transcripts(for path: String) -> [String] {
        let stem = (path as NSString).deletingPathExtension
        return ["\(stem).txt", "\(stem).md", "\(stem).transcript.txt", "\(stem).transcript.md", "\(stem).transcript.html", "\(stem).html"]
            .filter { FileManager.default.fileExists(atPath: $0) }
    }
}

extension MediaInfo {
    /// Whether the file has video that moves: a video stream that is not cover art (an attached picture).
    public var hasPictureVideo: Bool { streams(of: .video).contains { !$0.dispositions.contains("attached_pic") } }
}

/// Whether media that needs captions has them (WCAG 1.2.2, KWCAG 1.2).
public enum CaptionPresence {
    static let nowhere = "no caption file next to it (NAME.vtt, NAME.srt, NAME.en.srt …), no text subtitle track and no CEA-608 captions"

    /// `captions.missing` at error severity: media with `speechSeconds` of speech and no caption source. `unread` are
    /// sidecar files in formats MediaLint does not read: named, so that a user knows they were seen.
    public static func missingCaptions(speechSeconds: Double, unread: [String] = []) -> Finding {
        var message = "\(nowhere), but the audio has \(String(format: "%.1f", speechSeconds)) s of speech"
        if !unread.isEmpty {
            let names = unread.map { ($0 as NSString).lastPathComponent }
            message += "; \(names.joined(separator: ", ")) \(names.count == 1 ? "is" : "are") beside it, in a format MediaLint does not read"
        }
        return Rule.captionsMissing.finding(severity: .error, message: message, guidelines: ["WCAG 1.2.2", "KWCAG 1.2"])
    }

    /// The `captions` result for media without any caption source: a failure when its audio has speech, a
    /// note when it has too little, `unverified` when there is no audio (`speech` nil) to tell.
    public static func resultWithoutCaptions(_ path: String, speech: MediaSpeech?) -> CheckResult {
        guard let speech else {
            return CheckResult(
                file: path, check: .captions, verdict: .unverified,
                findings: [Rule.captionsMissing.finding(severity: .info, message: "\(nowhere); the media has no audio to tell whether captions are needed")])
        }
        let seconds = speech.timeline.clearSpeechSeconds
        let metrics = CaptionsMetrics(speechSeconds: seconds)
        if seconds < 1 {
            return CheckResult(
                file: path, findings: [Rule.captionsMissing.finding(severity: .info, message: "no captions, and no speech in the audio that would need them")],
                metrics: metrics)
        }
        return CheckResult(file: path, findings: [missingCaptions(speechSeconds: seconds, unread: CaptionSidecars.findUnread(for: path))], metrics: metrics)
    }
}
