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
        case .lint: LintCheck.summaryLine(result)
        case .autoplay: AutoplayCheck.summaryLine(result)
        case .captions, .media: nil
        }
    }
}

extension FlashCheck {
    /// `180 frames · 30 fps (shows at most 15 flashes/s) · most flashes in a second: 5 · profile wcag`.
    public static func summaryLine(_ result: CheckResult) -> String? {
        guard let count = result.metrics["framesAnalysed"]?.intValue, let rate = result.metrics["fps"]?.doubleValue,
            let most = result.metrics["maxFlashesPerSecond"]?.doubleValue,
            case .string(let name)? = result.metrics["standard"]
        else { return nil }
        return "\(count) frames · \(number(rate)) fps (shows at most \(number(rate / 2)) flashes/s) · "
            + "most flashes in a second: \(number(most)) · profile \(name)"
    }
}

extension SyncCheck {
    /// `Media/speech.srt · offset 0.000 s · drift ×1.000000 · speech captioned 95% · … · media 12.0 s`.
    public static func summaryLine(_ result: CheckResult) -> String? {
        func number(_ key: String) -> Double? { result.metrics[key]?.doubleValue }
        var parts: [String] = []
        if case .string(let source) = result.metrics["captions"] { parts.append(source) }
        if let offset = number("offsetSeconds") {
            parts.append(abs(offset) < 0.0005 ? "offset 0.000 s" : String(format: "offset %+.3f s", offset) + (offset > 0 ? " (late)" : " (early)"))
        }
        if let drift = number("driftRatio") { parts.append(String(format: "drift ×%.6f", drift)) }
        if let covered = number("speechCoverage") { parts.append("speech captioned \(Int((covered * 100).rounded()))%") }
        if let onSpeech = number("captionCoverage") { parts.append("cue time on speech \(Int((onSpeech * 100).rounded()))%") }
        if let matched = number("matchedCues"), let cues = number("dialogueCues") { parts.append("\(Int(matched))/\(Int(cues)) cues on speech onsets") }
        if let confidence = number("confidence") { parts.append(String(format: "confidence %.2f", confidence)) }
        if let duration = number("mediaDuration") { parts.append(String(format: "media %.1f s", duration)) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}

extension LintCheck {
    /// `4 cues · profile netflix · 0 errors, 2 warnings`.
    public static func summaryLine(_ result: CheckResult) -> String? {
        guard let cues = result.metrics["cues"]?.intValue, case .string(let profile) = result.metrics["profile"] else { return nil }
        let errors = result.errorCount, warnings = result.warningCount
        return
            "\(cues) cue\(cues == 1 ? "" : "s") · profile \(profile) · \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
    }
}

extension AutoplayCheck {
    /// A page: `6 autoplaying elements · profile wcag`; a media file: `5.007 s long · 3.000 s of sound between …`.
    public static func summaryLine(_ result: CheckResult) -> String? {
        if let duration = result.metrics["duration"]?.doubleValue, let audible = result.metrics["audibleSeconds"]?.doubleValue {
            var line = "\(NumberText.seconds(duration)) long · \(NumberText.seconds(audible)) of sound"
            if let first = result.metrics["firstAudible"]?.doubleValue, let last = result.metrics["lastAudible"]?.doubleValue {
                line += " between \(NumberText.seconds(first, unit: false)) and \(NumberText.seconds(last))"
            }
            if result.metrics["hasAudio"] == .bool(false) { line += " (no audio stream)" }
            return line
        }
        if let count = result.metrics["elements"]?.intValue, case .string(let profile) = result.metrics["profile"] {
            return "\(count) autoplaying element\(count == 1 ? "" : "s") · profile \(profile)"
        }
        return nil
    }
}
