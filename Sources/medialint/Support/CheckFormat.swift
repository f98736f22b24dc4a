import ArgumentParser
import Checks
import Findings
import Reports

/// The output formats of the check commands (`flash`, `sync` …).
enum CheckFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, jsonl, sarif, junit, html

    /// The reporter that writes results in this format: text with each check's summary line, SARIF with the rules
    /// described from the catalogue.
    func reporter(style: TextStyle) -> any CheckReporter {
        switch self {
        case .text: TextReport(style: style, summaryLine: CheckSummary.line(for:))
        case .json: JSONReport()
        case .jsonl: JSONLinesReport()
        case .sarif: SARIFReport(rules: RuleCatalogue.byID)
        case .junit: JUnitReport()
        case .html: HTMLReport()
        }
    }
}
