import Basics
import Findings

/// A report written while a run goes on: results are added in the order they are to appear, batch by batch, and the
/// report is closed with the run's summary. Text, JSON and JSON Lines are written as the results come (nothing is
/// kept: memory does not grow with the run); SARIF, JUnit and HTML need every result before they start (rules,
/// counts, the headline): they are kept in a temporary file until `finish` (`SpilledResults`), which reads them back as
/// often as the report needs. One call at a time (the caller serialises them).
public final class ReportStream: @unchecked Sendable {
    private let make: (_ summary: RunSummary?) -> any CheckReporter
    private let output: (UnsafeBufferPointer<UInt8>) -> Void
    private let parts: (any ReportParts)?
    private let kept: SpilledResults

    /// `make` gives the reporter (told the run's summary once it is known, for the reports that record its exit
    /// status and whether it was stopped); `output` takes the report's bytes a chunk at a time, in order. A report that
    /// needs every result first holds `keptInMemory` of them in memory, the others in a temporary file.
    public init(
        make: @escaping (_ summary: RunSummary?) -> any CheckReporter, output: @escaping (UnsafeBufferPointer<UInt8>) -> Void,
        keptInMemory: Int = 1_000
    ) {
        kept = SpilledResults(keptInMemory: keptInMemory)
        self.make = make
        self.output = output
        parts = make(nil).parts(to: output)
    }

    public func add(_ results: [CheckResult]) {
        if let parts { parts.add(results) } else { kept.add(results) }
    }

    /// Whether the report is written as results are added (text, JSON, JSON Lines, annotations); the others wait
    /// for the last.
    public var writesAsResultsCome: Bool { parts != nil }

    /// Closes a report that waits for the last result (`writesAsResultsCome` false) with `summary`, reading its
    /// results from `source` (as often as it needs) rather than from what was added.
    public func finish<Source: ResultSource>(_ summary: RunSummary, from source: Source) throws(Source.Failure) {
        precondition(parts == nil && kept.isEmpty, "a report written as results come, or given results already, reads no source")
        let reporter = make(summary)
        try reporter.write(from: source, to: output)
        reporter.writeSummary(summary, to: output)
    }

    /// Closes the report with `summary` (JSON Lines' last line; SARIF records its exit status). Throws when the results
    /// kept for it cannot be read back (the report is then incomplete).
    public func finish(_ summary: RunSummary) throws(SpilledResults.ReadError) {
        if let parts {
            parts.end(summary)
        } else {
            let reporter = make(summary)
            try reporter.write(from: kept.source(byFile: reporter.readsFiles), to: output)
            reporter.writeSummary(summary, to: output)
        }
    }
}

/// A report written in parts: `add` for each batch of results in order, then `end`; together the bytes of the
/// reporter's `write` of them all followed by its `writeSummary`.
public protocol ReportParts: AnyObject {
    func add(_ results: [CheckResult])
    func end(_ summary: RunSummary)
}

/// Text: a block per result, a blank line between blocks.
final class TextReportParts: ReportParts {
    let report: TextReport
    let output: (UnsafeBufferPointer<UInt8>) -> Void
    private var first = true

    init(_ report: TextReport, output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.report = report
        self.output = output
    }

    func add(_ results: [CheckResult]) {
        var out = ByteWriter(chunkHandler: output)
        for result in results {
            if !first { out.append(0x0A) }
            first = false
            report.write(result, metricsLine: report.summaryLine(result), to: &out)
            out.handOnIfFull()
        }
        out.finish()
    }

    func end(_ summary: RunSummary) {}
}

/// The JSON envelope, opened at once, a result at a time in its `results` array, closed at the end.
final class JSONReportParts: ReportParts {
    private var writer: JSONWriter

    init(output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        writer = JSONWriter(pretty: true, chunkHandler: output)
        CheckReport.writeStart(to: &writer)
    }

    func add(_ results: [CheckResult]) {
        for result in results { result.write(to: &writer) }
    }

    func end(_ summary: RunSummary) { finish(unchecked: summary.unchecked) }

    /// Closes the envelope (the JSON report has no summary; a stopped run's lists the files it did not check).
    func finish(unchecked: [String]? = nil) {
        CheckReport.writeEnd(unchecked: unchecked, to: &writer)
        writer.endLine()
        writer.finish()
    }
}

/// JSON Lines: a line a result, the summary last.
final class JSONLinesReportParts: ReportParts {
    let report: JSONLinesReport
    let output: (UnsafeBufferPointer<UInt8>) -> Void

    init(_ report: JSONLinesReport, output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.report = report
        self.output = output
    }

    func add(_ results: [CheckResult]) { report.write(results, to: output) }
    func end(_ summary: RunSummary) { report.writeSummary(summary, to: output) }
}
