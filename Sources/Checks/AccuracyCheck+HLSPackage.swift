import Captions
import Findings
import MediaIO
import Streaming
import SyncAnalysis

extension AccuracyCheck {
    /// Each subtitle rendition of `package` (its `timelines`) against the audio of the package, where the rendition's
    /// sync fit (`fixes`, in the same order; nil: its times as they are) puts its cues: an `accuracy` result per
    /// rendition, named by its playlist, in `language` if given, else the rendition's when it gives one.
    public func check(package: HLSPackage, timelines: [HLSPackage.SubtitleTimeline], fixes: [SyncFix?], language: String? = nil) -> [Outcome] {
        zip(timelines, fixes).map { timeline, fix in
            let source = package.label(of: timeline)
            do throws(MediaError) {
                return try check(
                    audio: .package(package), path: package.path, duration: package.duration, hasAudio: !package.audioFiles.segments.isEmpty,
                    captions: timeline.document, source: source, fix: fix, language: language ?? timeline.rendition?.language)
            } catch {
                return Outcome(result: CheckResult.unreadable(file: package.path, check: .accuracy, reason: error.reason), cues: [])
            }
        }
    }
}
