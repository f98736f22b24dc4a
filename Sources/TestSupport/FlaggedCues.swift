/// Cues flagged by a check (by index, with what was found), compared.
package enum FlaggedCues {
    /// Where `found` differs from `baseline`: "cue 12: wordsUnmatched, was wrongText", "cue 3: not flagged, was offTime".
    package static func differences<Status: Equatable>(_ found: [Int: Status], from baseline: [Int: Status]) -> [String] {
        Set(found.keys).union(baseline.keys).sorted().compactMap { cue in
            found[cue] == baseline[cue]
                ? nil : "cue \(cue + 1): \(found[cue].map { "\($0)" } ?? "not flagged"), was \(baseline[cue].map { "\($0)" } ?? "not flagged")"
        }
    }
}
