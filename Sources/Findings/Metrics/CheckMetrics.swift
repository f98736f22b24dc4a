import Basics

/// The metrics of one kind of check: how the `metrics` object of its results reads (docs/cli.md). Each check builds
/// its metrics as one of these (the rounding of every measure lives in their initializers), the encoder makes them
/// the result's JSON, and the text and HTML reporters read them back as the same type.
public protocol CheckMetrics: Codable, Sendable {
    /// The check whose results carry these metrics.
    static var check: CheckKind { get }
}

extension CheckResult {
    /// A result of `M.check` with typed metrics.
    public init<M: CheckMetrics>(file: String, verdict: Verdict? = nil, findings: [Finding], metrics: M) {
        self.init(file: file, check: M.check, verdict: verdict, findings: findings, metrics: Self.json(metrics))
    }

    /// A result of `M.check` whose findings are streamed, with typed metrics.
    public init<M: CheckMetrics>(file: String, streaming findings: StreamedFindings, metrics: M) {
        self.init(file: file, check: M.check, streaming: findings, metrics: Self.json(metrics))
    }

    /// The metrics read as `M`: nil for a result of another check, or metrics that do not read as `M` (an error
    /// result has none).
    public func metrics<M: CheckMetrics>(as type: M.Type) -> M? {
        guard check == M.check, case .object(let members) = metrics, !members.isEmpty else { return nil }
        return try? JSONValueDecoder().decode(type, from: metrics)
    }

    /// The metrics as JSON. Plain structs of numbers, strings and arrays always encode; should one ever fail, the
    /// result says so in its metrics rather than losing its findings.
    private static func json<M: CheckMetrics>(_ metrics: M) -> JSONValue {
        do {
            return try JSONValueEncoder().encode(metrics)
        } catch {
            return .object([("metricsError", .string(String(describing: error)))])
        }
    }
}
