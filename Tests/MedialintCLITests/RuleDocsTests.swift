import Checks
import Foundation
import TestSupport
import TestTraits
import Testing

/// Every rule has a page in docs/rules/ (why it matters, how to fix it, guideline levels), and its examples run as
/// written: the failing one makes the rule fire, the passing one does not. The pages are written from these runs
/// (`MEDIALINT_RECORD_RULE_DOCS=1`); a page that differs from what the rule's examples now print fails.
@Suite struct RuleDocsTests {
    static let folder = Medialint.root.appendingPathComponent("docs/rules")
    static var recording: Bool { ProcessInfo.processInfo.environment["MEDIALINT_RECORD_RULE_DOCS"] == "1" }

    /// Runs `example` in a fresh folder: its output in compact form, and the command line as the page shows it.
    static func run(_ example: RuleExample) throws -> RuleExampleRun {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, content) in example.files {
            let url = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if content.hasPrefix("@") {
                try FileManager.default.copyItem(at: Medialint.root.appendingPathComponent(String(content.dropFirst())), to: url)
            } else {
                try content.write(to: url, atomically: true, encoding: .utf8)
            }
        }
        let arguments = example.arguments + ["--format", "compact"]
        let result = try Medialint.run(arguments, in: directory)
        // The folder's own (temporary) name, where a message gives it, as the reader's: `.`.
        let output = result.stdout.replacingOccurrences(of: directory.path, with: ".")
        return RuleExampleRun(example: example, commandLine: "medialint " + arguments.joined(separator: " "), output: output)
    }

    /// The test files that name the rule, by its id or its constant (`Rule.flashRed`), its pages aside.
    static func tests(naming id: String) throws -> [String] {
        var constant = ""
        var upper = false
        for character in id {
            if character == "." || character == "-" {
                upper = true
            } else {
                constant.append(upper ? Character(character.uppercased()) : character)
                upper = false
            }
        }
        let tests = Medialint.root.appendingPathComponent("Tests")
        var found: [String] = []
        for case let file as URL in FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)!
        where file.pathExtension == "swift" && file.lastPathComponent != "RuleDocsTests.swift" {
            let source = try String(contentsOf: file, encoding: .utf8)
            if Self.names(source, id) || source.contains(".\(constant)") {
                found.append(String(file.path.dropFirst(Medialint.root.path.count + 1)))
            }
        }
        if let (file, marker) = shownUnder[id], try String(contentsOf: Medialint.root.appendingPathComponent(file), encoding: .utf8).contains(marker) {
            found.append(file)
        }
        return Array(found.sorted().prefix(3))
    }

    /// Rules a test shows under another name than their id: the detector or status the rule reports.
    static let shownUnder: [String: (file: String, marker: String)] = [
        "flash.extended": ("Tests/FlashDetectionTests/FlashAnalyzerUnitTests.swift", "ExtendedRiskWatch("),
        "accuracy.words-unmatched": ("Tests/SpeechAlignmentTests/ProgrammeAccuracyTests.swift", ".wordsUnmatched"),
        "accuracy.unverifiable": ("Tests/SpeechAlignmentTests/ProgrammeAccuracyTests.swift", ".unverifiable"),
    ]

    /// Whether `text` names `id` as a word (not inside a longer id).
    static func names(_ text: String, _ id: String) -> Bool {
        var rest = text[...]
        while let range = rest.range(of: id) {
            let before = rest[..<range.lowerBound].last, after = rest[range.upperBound...].first
            let partOfWord: (Character?) -> Bool = { $0.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." } ?? false }
            if !partOfWord(before), !(after.map { $0.isLetter || $0.isNumber || $0 == "-" } ?? false) { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }

    @Test(.tags(.slow), .notInFastRun) func everyRuleHasAPageWhoseExamplesRun() throws {
        var pages: [String: String] = [:]
        for rule in RuleCatalogue.all {
            let guide = try #require(RuleGuide.byID[rule.id], "\(rule.id) has no guide")
            let failing = try guide.failing.map(Self.run)
            let passing = try guide.passing.map(Self.run)
            if let failing { #expect(failing.output.contains("[\(rule.id)]"), "\(rule.id): the failing example does not fire it:\n\(failing.output)") }
            if let passing {
                // Passing: no error or warning of the rule (a note may say what was seen, e.g. media that autoplays muted).
                let fired = passing.output.split(separator: "\n").filter {
                    $0.hasSuffix("[\(rule.id)]") && ($0.contains(": error: ") || $0.contains(": warning: "))
                }
                #expect(fired.isEmpty, "\(rule.id): the passing example fires it:\n\(passing.output)")
            }
            let tests = try Self.tests(naming: rule.id)
            if failing == nil || passing == nil { #expect(!tests.isEmpty, "\(rule.id): no example and no test names it (\(failing == nil))") }
            pages["\(rule.id).md"] = RuleGuide.page(for: rule, failing: failing, passing: passing, tests: tests)
        }
        pages["README.md"] = RuleGuide.index(RuleCatalogue.all)
        if Self.recording {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            for (name, page) in pages { try page.write(to: Self.folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        }
        let written = Set(try FileManager.default.contentsOfDirectory(atPath: Self.folder.path))
        #expect(written == Set(pages.keys), "pages not for a rule, or missing: \(written.symmetricDifference(pages.keys).sorted())")
        for (name, page) in pages.sorted(by: { $0.key < $1.key }) {
            let onDisk = try? String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            #expect(onDisk == page, "docs/rules/\(name) is out of date (MEDIALINT_RECORD_RULE_DOCS=1 swift test --filter RuleDocsTests)")
        }
    }
}
