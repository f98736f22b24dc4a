import Captions
import Foundation
import MediaIO
import Reports

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

    /// The path of a file, `track N` for a track.
    public var label: String {
        switch origin {
        case .file(let path): path
        case .track(let track): "track \(track.index)"
        }
    }

    /// Every caption source of the media at `path` (described by `media`): its sidecar files, sorted, then its
    /// embedded text tracks. `readFile` reads a sidecar file.
    public static func all(for path: String, media: MediaInfo,
                           readFile: (String) throws -> CaptionDocument = { path throws in try CaptionFile.read(path) }) -> [CaptionSource] {
        var sources = CaptionSidecars.find(for: path).map { file in
            do {
                return CaptionSource(origin: .file(file), document: try readFile(file))
            } catch {
                let message = "\(error)"
                return CaptionSource(origin: .file(file), problem: message.hasPrefix(file) ? message : "\(file): \(message)")
            }
        }
        for track in media.textSubtitleTracks {
            do {
                sources.append(CaptionSource(origin: .track(track), document: try EmbeddedCaptions.read(path: path, streamIndex: track.index)))
            } catch {
                sources.append(CaptionSource(origin: .track(track), problem: "track \(track.index): \(error.reason)"))
            }
        }
        return sources
    }
}

/// Whether media that needs captions has them (WCAG 1.2.2, KWCAG 1.2).
public enum CaptionPresence {
    static let nowhere = "no caption file next to it (NAME.vtt, NAME.srt, NAME.en.srt …) and no text subtitle track"

    /// `captions.missing` at error severity: media with `speechSeconds` of speech and no caption source.
    public static func missingCaptions(speechSeconds: Double) -> Finding {
        Finding(rule: "captions.missing", severity: .error,
                message: "\(nowhere), but the audio has \(String(format: "%.1f", speechSeconds)) s of speech",
                guidelines: ["WCAG 1.2.2", "KWCAG 1.2"])
    }

    /// The `captions` result for media without any caption source: a failure when its audio has speech, a
    /// note when it has too little, `unverified` when there is no audio (`speech` nil) to tell.
    public static func resultWithoutCaptions(_ path: String, speech: MediaSpeech?) -> CheckResult {
        guard let speech else {
            return CheckResult(file: path, check: "captions", verdict: .unverified,
                               findings: [Finding(rule: "captions.missing", severity: .info, message: "\(nowhere); the media has no audio to tell whether captions are needed")])
        }
        let seconds = speech.timeline.totalSpeech
        let metrics = JSONValue.object([("speechSeconds", .number((seconds * 10).rounded() / 10))])
        if seconds < 1 {
            return CheckResult(file: path, check: "captions",
                               findings: [Finding(rule: "captions.missing", severity: .info, message: "no captions, and no speech in the audio that would need them")],
                               metrics: metrics)
        }
        return CheckResult(file: path, check: "captions", findings: [missingCaptions(speechSeconds: seconds)], metrics: metrics)
    }
}
