import Findings
import Testing

/// Rules turned off or given another severity by the settings, and baselines of known findings: what they leave of a
/// result, and its verdict.
struct RulePolicyTests {
    static let lint = CheckResult(
        file: "talk.srt", check: .lint,
        findings: [
            Finding(ruleID: "lint.line-length", severity: .warning, message: "cue 2: line 1 has 49 characters", start: 3.5, end: 6.092, line: 6),
            Finding(ruleID: "lint.overlap", severity: .error, message: "cue 3: starts before cue 2 ends", start: 6, end: 9, line: 10),
            Finding(ruleID: "captions.audio-description", severity: .info, message: "no audio-description track"),
        ])

    @Test func rulesByIdOrPrefix() {
        #expect(RulePolicy.names("lint", "lint.overlap") && RulePolicy.names("lint.", "lint.overlap") && RulePolicy.names("lint.overlap", "lint.overlap"))
        #expect(!RulePolicy.names("lint.over", "lint.overlap") && !RulePolicy.names("lin", "lint.overlap"))
        let off = RulePolicy(disabled: ["lint.overlap", "captions"]).apply(Self.lint)
        #expect(off.findings.map(\.rule) == ["lint.line-length"] && off.verdict == .warn)
        let allOff = RulePolicy(disabled: ["lint", "captions."]).apply(Self.lint)
        #expect(allOff.findings.isEmpty && allOff.verdict == .pass)
        // The longest name wins: every lint rule an error, but line length a note.
        let severities = RulePolicy(severities: ["lint": .error, "lint.line-length": .info]).apply(Self.lint)
        #expect(severities.findings.map(\.severity) == [.info, .error, .info] && severities.verdict == .fail)
        let softened = RulePolicy(severities: ["lint.overlap": .warning]).apply(Self.lint)
        #expect(softened.verdict == .warn)
    }

    /// A verdict the check decided otherwise stays: an unreadable file is reported whatever the settings; timing
    /// that could not be verified stays unverified.
    @Test func verdictsNotFromFindingsStay() {
        let unreadable = CheckResult(
            file: "a.mp4", check: .media, verdict: .error, findings: [Finding(ruleID: "media.unreadable", severity: .error, message: "truncated")])
        #expect(RulePolicy(disabled: ["media"]).apply(unreadable).findings.count == 1)
        let unverified = CheckResult(
            file: "a.mp4", check: .sync, verdict: .unverified, findings: [Finding(ruleID: "sync.unverified", severity: .info, message: "no speech")])
        #expect(RulePolicy(severities: ["sync": .error]).apply(unverified).verdict == .unverified)
    }

    /// Each known finding is left out once: a second finding alike is new.
    @Test func aBaselineLeavesOutWhatItKnows() {
        let entries = Baseline.entries(of: [Self.lint], name: { $0 })
        #expect(entries.count == 3 && entries.map(\.file) == ["talk.srt", "talk.srt", "talk.srt"])
        var baseline = Baseline(Array(entries.prefix(2)))
        let (filtered, known) = baseline.filter(Self.lint, name: { $0 })
        #expect(known == 2 && filtered.findings.map(\.rule) == ["captions.audio-description"] && filtered.verdict == .pass)
        // Used up: the same findings again are new.
        let (again, knownAgain) = baseline.filter(Self.lint, name: { $0 })
        #expect(knownAgain == 0 && again.findings.count == 3 && again.verdict == .fail)
        // Another file's findings are not this one's.
        var other = Baseline(entries)
        #expect(other.filter(Self.lint, name: { "other/" + $0 }).known == 0)
    }
}
