import Basics
import Findings

/// JSON Lines: one result a line, each the `results` member of the JSON report; streams. The last line is the run's
/// summary (`{"summary": {…}, "tool", "version"}`).
public struct JSONLinesReport: CheckReporter {
    public init() {}

    public var streams: Bool { true }

    public func write(_ results: [CheckResult], to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        var writer = JSONWriter(pretty: false, chunkHandler: output)
        for result in results {
            result.write(to: &writer)
            writer.endLine()
        }
        writer.finish()
    }

    public func writeSummary(_ summary: RunSummary, to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        var writer = JSONWriter(pretty: false, chunkHandler: output)
        summary.write(to: &writer)
        writer.endLine()
        writer.finish()
    }

    public func parts(to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> (any ReportParts)? {
        JSONLinesReportParts(self, output: output)
    }
}
