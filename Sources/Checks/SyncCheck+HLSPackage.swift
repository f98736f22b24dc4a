import Captions
import Findings
import Streaming

extension SyncCheck {
    /// Each subtitle rendition of `package` (its `timelines`, by default read here) against the speech of its audio:
    /// a `sync` result per rendition, named by the rendition's playlist.
    public func check(
        package: HLSPackage, timelines: [HLSPackage.SubtitleTimeline]? = nil
    ) -> [Outcome] {
        let speech: MediaSpeech?
        var problem: String?
        do { speech = try package.speech() } catch {
            speech = nil
            problem = error.reason
        }
        let leftOut = speech == nil ? [] : package.audioFiles.unreadable
        return (timelines ?? package.subtitleTimelines()).map { timeline in
            var outcome = check(
                path: package.path, duration: package.duration, mediaStart: 0, speech: speech.map { ($0.timeline, $0.stream.index) },
                captions: timeline.document, source: package.label(of: timeline),
                silence: "no speech was found in the package's audio",
                noAudio: problem.map { "the package's audio cannot be decoded: \($0)" } ?? "the package has no audio")
            if !leftOut.isEmpty {
                outcome.result.markUnverified(
                    Rule.syncUnverified.finding(
                        severity: .warning,
                        message:
                            "\(HLSPackage.describe(leftOut)) of the audio could not be read: the speech in \(leftOut.count == 1 ? "it" : "them") was not heard")
                )
            }
            return outcome
        }
    }
}

extension SyncCheck {
    /// The `sync` result of a package with no readable subtitle rendition: not verified.
    public static func withoutSubtitles(package path: String) -> CheckResult {
        CheckResult(
            file: path, check: .sync, verdict: .unverified,
            findings: [Rule.syncUnverified.finding(severity: .info, message: "timing not verified: the package has no readable subtitle rendition")])
    }
}
