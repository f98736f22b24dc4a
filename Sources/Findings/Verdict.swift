/// The outcome of a check.
public enum Verdict: String, Sendable, Encodable {
    /// Nothing at error or warning severity.
    case pass
    /// Only warnings.
    case warn
    /// At least one finding at error severity.
    case fail
    /// Could not be judged without something out of reach.
    case unverified
    /// The input could not be read.
    case error

    /// The verdict findings lead to.
    public init(findings: [Finding]) {
        if findings.contains(where: { $0.severity == .error }) {
            self = .fail
        } else if findings.contains(where: { $0.severity == .warning }) {
            self = .warn
        } else {
            self = .pass
        }
    }
}
