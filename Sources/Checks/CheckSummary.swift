import Basics
import Findings
import Foundation

/// The line under a result in text reports that sums up its metrics, made by the check that made the result:
/// `180 frames · 30 fps … · profile wcag`, `track 2 · offset +0.001 s (late) …`, `4 cues · profile netflix …`.
public enum CheckSummary {
    /// The summary line of `result`, whatever its check; nil when its metrics say nothing worth a line.
    public static func line(for result: CheckResult) -> String? {
        switch result.check {
        case .flash: FlashCheck.summaryLine(result)
        case .sync: SyncCheck.summaryLine(result)
        case .accuracy: AccuracyCheck.summaryLine(result)
        case .lint: LintCheck.summaryLine(result)
        case .autoplay: AutoplayCheck.summaryLine(result)
        case .captions, .media: nil
        }
    }
}

extension FlashCheck {
    /// `180 frames · 30 fps (shows at most 15 flashes/s) · most flashes in a second: 5 · profile wcag`.
    public static func summaryLine(_ result: CheckResult) -> String? {
        guard let metrics = result.metrics(as: FlashMetrics.self) else { return nil }
        return "\(metrics.framesAnalysed) frames · \(number(metrics.fps)) fps (shows at most \(number(metrics.fps / 2)) flashes/s) · "
            + "most flashes in a second: \(number(metrics.maxFlashesPerSecond)) · profile \(metrics.standard)"
    }
}

extension SyncCheck {
    /// `Media/speech.srt · offset 0.000 s · drift ×1.000000 · speech captioned 95% · … · media 12.0 s`.
    public static func summaryLine(_ result: CheckResult) -> String? {
        guard let metrics = result.metrics(as: SyncMetrics.self) else { return nil }
        var parts = [metrics.captions]
        if let offset = metrics.offsetSeconds {
            parts.append(abs(offset) < 0.0005 ? "offset 0.000 s" : String(format: "offset %+.3f s", offset) + (offset > 0 ? " (late)" : " (early)"))
        }
        if let drift = metrics.driftRatio { parts.append(String(format: "drift ×%.6f", drift)) }
        if let covered = metrics.speechCoverage { parts.append("speech captioned \(Int((covered * 100).rounded()))%") }
        if let onSpeech = metrics.captionCoverage { parts.append("cue time on speech \(Int((onSpeech * 100).rounded()))%") }
        if let matched = metrics.matchedCues, let cues = metrics.dialogueCues { parts.append("\(matched)/\(cues) cues on speech onsets") }
        if let confidence = metrics.confidence { parts.append(String(format: "confidence %.2f", confidence)) }
        if let duration = metrics.mediaDuration { parts.append(String(format: "media %.1f s", duration)) }
        return parts.joined(separator: " · ")
    }
}

extension LintCheck {
    /// `4 cues · profile netflix · 0 errors, 2 warnings`.
    public static func summaryLine(_ result: CheckResult) -> String? {
        guard let metrics = result.metrics(as: LintMetrics.self) else { return nil }
        var errors = result.errorCount, warnings = result.warningCount
        // Findings a library check left out (check.findings-limit) are still counted.
        if let limit = result.findings.last(where: { $0.rule == Rule.checkFindingsLimit.id }), case .object(let left) = limit.data {
            for (key, value) in left {
                guard case .integer(let count) = value else { continue }
                if key == Severity.error.rawValue { errors += Int(count) }
                if key == Severity.warning.rawValue { warnings += Int(count) }
            }
        }
        let cues = metrics.cues
        return
            "\(cues) cue\(cues == 1 ? "" : "s") · profile \(metrics.profile) · \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
    }
}

extension AutoplayCheck {
    /// A page: `6 autoplaying elements · profile wcag`; a media file: `5.007 s long · 3.000 s of sound between …`.
    public static func summaryLine(_ result: CheckResult) -> String? {
        if let media = result.metrics(as: AutoplayMediaMetrics.self) {
            var line = "\(NumberText.seconds(media.duration)) long · \(NumberText.seconds(media.audibleSeconds)) of sound"
            if let first = media.firstAudible, let last = media.lastAudible {
                line += " between \(NumberText.seconds(first, unit: false)) and \(NumberText.seconds(last))"
            }
            if !media.hasAudio { line += " (no audio stream)" }
            return line
        }
        if let page = result.metrics(as: AutoplayPageMetrics.self) {
            return "\(page.elements) autoplaying element\(page.elements == 1 ? "" : "s") · profile \(page.profile)"
        }
        return nil
    }
}
