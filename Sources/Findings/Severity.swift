/// How serious a finding is.
public enum Severity: String, Sendable, Codable, Comparable {
    case error, warning, info

    private var rank: Int { self == .error ? 2 : self == .warning ? 1 : 0 }
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
