import Checks
import Foundation
import TestSupport
import Testing

/// The JSON every command prints follows the schemas users read in `docs/schema/`: the check report (and each JSON
/// Lines result), probe, cues, transcript and rules. Checked on every golden record and on live runs over files
/// the samples do not cover.
@Suite struct JSONContractTests {
    static let schemas = Medialint.root.appendingPathComponent("docs/schema")

    static func validator(_ name: String) throws -> JSONSchemaValidator {
        JSONSchemaValidator(root: try JSONNode.parse(String(contentsOf: schemas.appendingPathComponent(name), encoding: .utf8)))
    }

    /// The schema for one JSON Lines result: the report schema's `result` definition.
    static func resultValidator(_ definition: String = "result") throws -> JSONSchemaValidator {
        let report = try JSONNode.parse(String(contentsOf: schemas.appendingPathComponent("check-report.schema.json"), encoding: .utf8))
        guard let definitions = report["definitions"] else { throw CocoaError(.coderValueNotFound) }
        return JSONSchemaValidator(root: .object(["$ref": .string("#/definitions/\(definition)"), "definitions": definitions]))
    }

    /// The schema a command line's JSON output follows, and whether it is JSON Lines; nil for other output.
    static func schema(for arguments: [String]) -> (name: String, lines: Bool)? {
        let format = arguments.firstIndex(of: "--format").map { arguments[$0 + 1] }
        switch (arguments.first, format) {
        case ("probe", "json"): return ("probe.schema.json", false)
        case ("cues", "json"): return ("cues.schema.json", false)
        case ("transcript", "json"): return ("transcript.schema.json", false)
        case ("rules", "json"): return ("rules.schema.json", false)
        case (_, "json"): return ("check-report.schema.json", false)
        case (_, "jsonl"): return ("check-report.schema.json", true)
        default: return nil
        }
    }

    static func errors(_ output: String, arguments: [String]) throws -> [String] {
        guard let (name, lines) = schema(for: arguments) else { return [] }
        if lines {
            // A result a line; the last line, the run's summary.
            let validator = try resultValidator(), summary = try resultValidator("summary")
            let records = output.split(separator: "\n")
            guard let last = records.last else { return ["no summary line"] }
            return try records.dropLast().flatMap { validator.errors(in: try JSONNode.parse(String($0))) }
                + summary.errors(in: try JSONNode.parse(String(last)))
        }
        return try validator(name).errors(in: try JSONNode.parse(output))
    }

    @Test func everyGoldenRecordFollowsItsSchema() throws {
        var checked = 0
        for golden in GoldenOutputTests.cases {
            guard Self.schema(for: golden.arguments) != nil else { continue }
            let record = try String(contentsOf: GoldenOutputTests.fixtures.appendingPathComponent("\(golden.name).txt"), encoding: .utf8)
            var output = record.components(separatedBy: "--- stdout\n")[1]
            output = output.components(separatedBy: "--- stderr\n")[0].components(separatedBy: "--- $OUT\n")[0]
            if output.isEmpty { continue }  // unreadable input: nothing on stdout
            let found = try Self.errors(output, arguments: golden.arguments)
            #expect(found.isEmpty, "\(golden.name): \(found.prefix(5))")
            checked += 1
        }
        #expect(checked >= 30)
    }

    /// Live runs over what the samples leave out: every lint rule, an unreadable caption file, a library with a page,
    /// caption files and a broken file, the rule catalogue.
    @Test(arguments: [
        "lint Tests/CaptionQualityTests/Fixtures/every-rule.vtt --media Media/speech.mp4 --format json",
        "lint Tests/CaptionQualityTests/Fixtures/every-rule.vtt --format jsonl",
        "lint Media/speech.mp4 --format json",
        "flash Media/flashing.mp4 Media/truncated.mp4 --profile bt1702 --format jsonl",
        "sync Media/embedded-subtitles.mkv --format jsonl",
        "autoplay Media --format json",
        "check Media/speech.mp4 Media/speech.srt Media/autoplay-sample.html Media/empty.mp4 --no-store --format jsonl",
        "rules --format json",
        "probe Media/gray-ramp-10bit.mkv --format json",
        "cues Media/speech.srt --format json",
        "transcript Media/speech.vtt --format json",
        // Inputs that cannot be read still give a document.
        "probe Media/corrupt-header.mp4 --format json",
        "probe Media/missing.mp4 --format json",
        "cues Media/not-media.mp4 --format json",
        "transcript Media/missing.srt --format json",
        "sync Media/not-media.mp4 Media/speech.vtt --format json",
        "sync Media/speech.mp4 Media/not-media.mp4 --format jsonl",
    ]) func liveOutputFollowsItsSchema(_ line: String) throws {
        let arguments = line.split(separator: " ").map(String.init)
        let result = try Medialint.run(arguments)
        #expect([0, 1, 2].contains(result.status), "\(line): \(result.stderr)")
        #expect(!result.stdout.isEmpty, "\(line)")
        let found = try Self.errors(result.stdout, arguments: arguments)
        #expect(found.isEmpty, "\(line): \(found.prefix(5))")
        // Every finding's rule is in the catalogue.
        let documents = line.hasSuffix("jsonl") ? result.stdout.split(separator: "\n").map(String.init) : [result.stdout]
        for document in documents {
            let rules = Self.findingRules(in: try JSONSerialization.jsonObject(with: Data(document.utf8)))
            #expect(
                rules.allSatisfy { RuleCatalogue.byID[$0] != nil }, "\(line): rules not in the catalogue: \(rules.filter { RuleCatalogue.byID[$0] == nil })")
        }
        // Every JSON document names the tool and its version (JSON Lines: in the summary, the last line).
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let document = try #require(try JSONSerialization.jsonObject(with: Data((line.hasSuffix("jsonl") ? last : result.stdout).utf8)) as? [String: Any])
        #expect(document["tool"] as? String == "medialint" && document["version"] is String, "\(line)")
    }

    /// The `rule` of every finding (an object in a `findings` array) anywhere in a JSON document.
    static func findingRules(in json: Any) -> [String] {
        if let object = json as? [String: Any] {
            var rules = (object["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
            for value in object.values { rules += findingRules(in: value) }
            return rules
        }
        return (json as? [Any] ?? []).flatMap { findingRules(in: $0) }
    }

    /// `-o FILE` without `--format`: the format its name says.
    @Test func theOutputNameChoosesTheFormat() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, start) in [
            ("report.html", "<!DOCTYPE html>"), ("report.sarif", "{\n  \"$schema\""), ("report.json", "{\n  \"tool\""), ("report.jsonl", "{\"file\""),
            ("report.xml", "<?xml"), ("report.txt", "Media/speech.srt  WARN  lint"),
        ] {
            let path = directory.appendingPathComponent(name).path
            let result = try Medialint.run(["lint", "Media/speech.srt", "-o", path])
            #expect(result.status == 0 && result.stdout.isEmpty, "\(name)")
            #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix(start), "\(name)")
        }
        // --format wins; probe and cues take json from the name too.
        let text = directory.appendingPathComponent("forced.html").path
        #expect(try Medialint.run(["lint", "Media/speech.srt", "-o", text, "--format", "text"]).status == 0)
        #expect(try String(contentsOfFile: text, encoding: .utf8).hasPrefix("Media/speech.srt  WARN"))
        let probe = directory.appendingPathComponent("probe.json").path
        #expect(try Medialint.run(["probe", "Media/speech.mp4", "-o", probe]).status == 0)
        #expect(try String(contentsOfFile: probe, encoding: .utf8).hasPrefix("{\n  \"tool\": \"medialint\""))
    }

    /// The schemas are not rubber stamps: reports that break the contract are caught.
    @Test func theSchemasCatchBrokenReports() throws {
        let report = try Self.validator("check-report.schema.json")
        func errors(_ json: String) throws -> [String] { report.errors(in: try JSONNode.parse(json)) }
        let finding = #"{"rule":"flash.general","severity":"error","message":"m","guidelines":[],"data":{}}"#
        let metrics =
            #"{"framesAnalysed":1,"fps":25,"maxFlashesPerSecond":5,"maxGeneralFlashesPerSecond":5,"maxRedFlashesPerSecond":0,"standard":"wcag","samplingLimit":12.5,"areaBasis":"field","hdr":false}"#
        func document(_ result: String) -> String { #"{"tool":"medialint","version":"0.1.0","results":["# + result + "]}" }
        #expect(try errors(document(#"{"file":"a.mp4","check":"flash","verdict":"fail","findings":["# + finding + #"],"metrics":"# + metrics + "}")) == [])
        #expect(try !errors(document(#"{"file":"a.mp4","check":"flash","verdict":"fail","findings":[],"metrics":{}}"#)).isEmpty)
        #expect(try !errors(document(#"{"file":"a.mp4","check":"blink","verdict":"fail","findings":[],"metrics":"# + metrics + "}")).isEmpty)
        let badSeverity = finding.replacingOccurrences(of: "\"error\"", with: "\"fatal\"")
        #expect(
            try !errors(document(#"{"file":"a.mp4","check":"flash","verdict":"fail","findings":["# + badSeverity + #"],"metrics":"# + metrics + "}")).isEmpty)
        let badRule = finding.replacingOccurrences(of: "flash.general", with: "Flash General")
        #expect(try !errors(document(#"{"file":"a.mp4","check":"flash","verdict":"fail","findings":["# + badRule + #"],"metrics":"# + metrics + "}")).isEmpty)
        #expect(try !errors(#"{"tool":"medialint","results":[]}"#).isEmpty)
        #expect(
            try !Self.validator("probe.schema.json").errors(in: JSONNode.parse(#"{"file":"a","format":"mp4","formatLongName":"x","size":-1,"streams":[]}"#))
                .isEmpty)
    }
}
