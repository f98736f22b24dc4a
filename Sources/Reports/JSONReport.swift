import Findings

/// The JSON report: the envelope `{"tool", "version", "results"}`, pretty-printed (docs/cli.md).
public struct JSONReport: CheckReporter {
    public init() {}

    public func write(_ results: [CheckResult], to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        let parts = JSONReportParts(output: output)
        parts.add(results)
        parts.finish()
    }

    public func parts(to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> (any ReportParts)? {
        JSONReportParts(output: output)
    }
}
