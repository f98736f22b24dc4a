import Captions
import Findings
import SyncAnalysis

/// A sync fix applied to the captions it was found on: the corrected captions, what was moved, and the result with
/// what the fix corrects marked as fixed.
public struct SyncCorrection: Sendable {
    /// The captions with corrected times (as they were when the timing was within the tolerance).
    public var document: CaptionDocument
    /// Whether any time was moved: false when the timing was already within the tolerance.
    public var changed: Bool
    /// What was moved, for a note: "times moved by +1.500 s; 3 cues moved onto their speech".
    public var summary: String
    /// What had to be clamped while moving times.
    public var diagnostics: [CaptionDiagnostic]
    /// The check's result before the fix.
    public var original: CheckResult
    /// The rules whose findings the fix corrects.
    public var corrects: Set<Rule>

    /// The rules a fix corrects: the offset, drift and breaks; with `snap`, single cues off their speech too.
    public static func correctedRules(snap: Bool) -> Set<Rule> {
        snap ? [.syncOffset, .syncDrift, .syncBreak, .syncCueOffset] : [.syncOffset, .syncDrift, .syncBreak]
    }

    /// The result with the findings the fix corrects turned into notes saying they were fixed in `path`, and the
    /// verdict of what remains: what a report shows once the corrected captions are written.
    public func result(writtenTo path: String) -> CheckResult {
        var result = original
        let ids = Set(corrects.map(\.id))
        guard result.findings.contains(where: { ids.contains($0.rule) }) else { return result }
        result.findings = result.findings.map { finding in
            guard ids.contains(finding.rule) else { return finding }
            var finding = finding
            finding.severity = .info
            finding.message += " — fixed in \(path): \(summary)"
            return finding
        }
        if result.verdict == .fail || result.verdict == .warn { result.verdict = Verdict(findings: result.findings) }
        return result
    }
}

extension SyncCheck.Outcome {
    /// The fix applied to `document` (the captions the check was run on); with `snap`, each cue is also moved onto
    /// its own speech onset. Nil when the timing could not be verified (there is no fix).
    public func correction(of document: CaptionDocument, snap: Bool) -> SyncCorrection? {
        guard let fix else { return nil }
        let corrects = SyncCorrection.correctedRules(snap: snap)
        let ids = Set(corrects.map(\.id))
        var corrected = SyncCorrection(
            document: document, changed: false, summary: fix.summary, diagnostics: [], original: result, corrects: corrects)
        guard result.findings.contains(where: { ids.contains($0.rule) }) else { return corrected }
        let applied = fix.apply(to: &corrected.document, snap: snap)
        corrected.changed = true
        corrected.diagnostics = applied.diagnostics
        if snap { corrected.summary += "; \(applied.snapped) cue\(applied.snapped == 1 ? "" : "s") moved onto their speech" }
        return corrected
    }
}
