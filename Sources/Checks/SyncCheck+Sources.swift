import Captions
import Findings
import MediaIO

extension SyncCheck {
    /// One caption source of the media at `path` against its speech: a source that could not be read is a failing
    /// result that names it.
    public func check(path: String, media: MediaInfo, speech: MediaSpeech?, source: CaptionSource) -> Outcome {
        guard let document = source.document else {
            return Outcome(
                result: CheckResult(
                    file: path, verdict: .error, findings: [Rule.captionsParse.finding(severity: .error, message: source.problem ?? "unreadable")],
                    metrics: SyncMetrics(captions: source.label)),
                fix: nil, report: nil)
        }
        return check(path: path, media: media, speech: speech, captions: document, source: source.label)
    }
}

extension SyncCheck {
    /// `check(path:media:speech:source:)`, its result timed.
    public func timedCheck(path: String, media: MediaInfo, speech: MediaSpeech?, source: CaptionSource) -> Outcome {
        let clock = ContinuousClock()
        let started = clock.now
        var outcome = check(path: path, media: media, speech: speech, source: source)
        if source.document != nil { outcome.result.seconds = (clock.now - started).inSeconds }
        return outcome
    }
}
