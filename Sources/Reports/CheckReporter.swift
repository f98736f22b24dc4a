import Findings

/// A format check results are written in — text, JSON, JSON Lines, SARIF, JUnit, HTML: what the check commands
/// hand their results to.
public protocol CheckReporter: Sendable {
    /// Whether the report can be written as results become known: its report of some results followed by its
    /// report of the next ones is its report of them all (JSON Lines). A library run prints such a report file by
    /// file; the others wait for the last result.
    var streams: Bool { get }

    /// Writes the report of `results`, handing its bytes to `output` a chunk at a time, in order.
    func write(_ results: [CheckResult], to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void)

    /// Writes what closes a streamed report: the run's summary (JSON Lines' last line). Nothing for the others.
    func writeSummary(_ summary: RunSummary, to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void)

    /// A writer of this report in parts, results added in order (`ReportStream`); nil when the report needs every
    /// result before it starts.
    func parts(to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> (any ReportParts)?

    /// Writes the report of the results `source` holds, reading them as often as it needs: SARIF, JUnit and HTML
    /// read them once to count and again to write, so that a report of a whole catalogue's stores holds a batch of
    /// results at a time. The others read them all, then `write` them.
    func write<Source: ResultSource>(from source: Source, to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) throws(Source.Failure)

    /// Whether `write(from:)` wants a unit a file (each file's results together, once: the HTML page's rows); else any
    /// units do.
    var readsFiles: Bool { get }
}

extension CheckReporter {
    public var streams: Bool { false }

    public var readsFiles: Bool { false }

    public func writeSummary(_ summary: RunSummary, to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {}

    public func parts(to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> (any ReportParts)? { nil }

    public func write<Source: ResultSource>(from source: Source, to output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) throws(Source.Failure) {
        var results: [CheckResult] = []
        try source.forEachResult { results.append($0) }
        write(results, to: output)
    }

    /// The report of `results`, as text.
    public func report(_ results: [CheckResult]) -> String {
        var bytes: [UInt8] = []
        write(results) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
