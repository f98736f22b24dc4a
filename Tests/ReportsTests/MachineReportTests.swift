import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Reports
import Testing

/// SARIF validated against the SARIF 2.1.0 schema (shipped as a fixture), and JUnit XML parsed back.
struct MachineReportTests {
    static let schemaPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/sarif-schema-2.1.0.json").path

    /// A lint result (findings with lines), a media result (timed, no line), a clean file and an unreadable one.
    static let results: [CheckResult] = [
        CheckResult(file: "captions/talk & co.vtt", check: "lint", findings: [
            Finding(rule: "lint.line-length", severity: .warning, message: "cue 6: line 1 has 58 characters (at most 42)", start: 18, end: 21,
                    line: 19, guidelines: ["Netflix TTSG"], data: .object([("cue", .integer(6)), ("measured", .number(58)), ("limit", .number(42))])),
            Finding(rule: "lint.overlap", severity: .error, message: "cue 9: starts before cue 8 ends <here>", start: 27, end: 29, line: 30),
            Finding(rule: "lint.syntax", severity: .info, message: "a note", line: 2),
        ]),
        CheckResult(file: "media/flashing.mp4", check: "flash", findings: [
            Finding(rule: "flash.general", severity: .error, message: "general flashing: up to 5 flashes a second", start: 2, end: 4,
                    guidelines: ["WCAG 2.3.1", "KWCAG 3.3"]),
        ]),
        CheckResult(file: "clean.srt", check: "lint", findings: []),
        CheckResult(file: "broken.vtt", check: "lint", verdict: .error, findings: [Finding(rule: "captions.parse", severity: .error, message: "not WebVTT")]),
    ]

    @Test func sarifIsValidSARIF210() throws {
        let validator = JSONSchemaValidator(root: try JSONNode.parse(String(contentsOfFile: Self.schemaPath, encoding: .utf8)))
        let sarif = SARIFReport(ruleDescriptions: ["lint.line-length": "a line longer than the profile allows"]).render(Self.results)
        let document = try JSONNode.parse(sarif.serialized(pretty: true))
        #expect(validator.errors(in: document) == [])

        // What GitHub code scanning needs: a rule id, a level, a message, a file and a line ≥ 1 for every result.
        guard case .array(let runs)? = document["runs"], case .array(let results)? = runs.first?["results"] else { throw CocoaError(.coderInvalidValue) }
        #expect(results.count == 5)
        for result in results {
            let location = result["locations"].flatMap { if case .array(let list) = $0 { list.first } else { nil } }?["physicalLocation"]
            #expect(location?["artifactLocation"]?["uri"] != nil)
            if case .integer(let line)? = location?["region"]?["startLine"] { #expect(line >= 1) } else { Issue.record("no startLine") }
        }
        #expect(results.first?["locations"].flatMap { if case .array(let list) = $0 { list.first } else { nil } }?["physicalLocation"]?["artifactLocation"]?["uri"]
                == .string("captions/talk%20%26%20co.vtt"))
        #expect(results.compactMap { if case .string(let level)? = $0["level"] { level } else { nil } } == ["warning", "error", "note", "error", "error"])
    }

    /// The validator is not a rubber stamp: documents that break the schema are caught.
    @Test func theValidatorCatchesBrokenSARIF() throws {
        let validator = JSONSchemaValidator(root: try JSONNode.parse(String(contentsOfFile: Self.schemaPath, encoding: .utf8)))
        let broken = [
            #"{"version": "2.1.0"}"#,
            #"{"version": "2.0.0", "runs": []}"#,
            #"{"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]}"#,
            #"{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}]}"#,
            #"{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {}}]}]}"#,
            #"{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a"}, "region": {"startLine": 0}}}]}]}]}"#,
            #"{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x", "informationUri": "not a uri"}}}]}"#,
            #"{"version": "2.1.0", "runs": [], "extra": 1}"#,
        ]
        for text in broken {
            #expect(!validator.errors(in: try JSONNode.parse(text)).isEmpty, "\(text)")
        }
        #expect(validator.errors(in: try JSONNode.parse(#"{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": []}]}"#)) == [])
    }

    @Test func junitParsesBack() throws {
        let xml = JUnitReport().render(Self.results)
        let document = try XMLDocument(data: Data(xml.utf8))
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "4")
        #expect(root.attribute(forName: "failures")?.stringValue == "2")
        #expect(root.attribute(forName: "errors")?.stringValue == "1")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == ["medialint lint", "medialint flash"])
        let lintCases = suites[0].elements(forName: "testcase")
        #expect(lintCases.map { $0.attribute(forName: "name")?.stringValue } == ["captions/talk & co.vtt", "clean.srt", "broken.vtt"])
        let failure = try #require(lintCases[0].elements(forName: "failure").first)
        #expect(failure.attribute(forName: "type")?.stringValue == "lint.overlap")
        #expect(failure.stringValue == "error: line 30 27.000 s — cue 9: starts before cue 8 ends <here> [lint.overlap]")
        #expect(lintCases[0].elements(forName: "system-out").first?.stringValue?.contains("[lint.line-length]") == true)
        #expect(lintCases[1].children == nil || lintCases[1].children?.isEmpty == true, "a clean file is a passing test case")
        #expect(lintCases[2].elements(forName: "error").first?.attribute(forName: "message")?.stringValue == "not WebVTT")
        #expect(suites[1].elements(forName: "testcase").first?.elements(forName: "failure").count == 1)
    }
}
