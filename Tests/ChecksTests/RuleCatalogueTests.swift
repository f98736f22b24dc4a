import CaptionQuality
import Findings
import Foundation
import Testing

@testable import Checks

/// The rule catalogue (`medialint rules`): every rule described, linked to its source, and the only rules checks
/// can report.
@Suite struct RuleCatalogueTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    @Test func everyRuleIsDescribedAndLinked() {
        #expect(RuleCatalogue.all.count == Set(RuleCatalogue.all.map(\.id)).count, "ids are unique")
        let namespaces: Set<String> = ["flash", "pattern", "sync", "accuracy", "lint", "autoplay", "captions", "transcript", "media", "check", "hls"]
        for rule in RuleCatalogue.all {
            #expect(namespaces.contains(String(rule.id.prefix { $0 != "." })), "\(rule.id): a known namespace")
            #expect(rule.id.allSatisfy { $0.isLowercase || $0 == "." || $0 == "-" }, "\(rule.id): lowercase, dots and dashes")
            #expect(!rule.title.isEmpty && !rule.title.hasSuffix("."), "\(rule.id): a title")
            #expect(rule.description.count > rule.title.count && rule.description.hasSuffix("."), "\(rule.id): a description")
            #expect(rule.helpURL.hasPrefix("https://") && URL(string: rule.helpURL) != nil, "\(rule.id): a help link")
        }
        #expect(RuleCatalogue.lint == CaptionLinter.rules)
        #expect(RuleCatalogue.rule("flash.general")?.guidelines.contains("WCAG 2.3.1") == true)
        #expect(RuleCatalogue.rule("no.such-rule") == nil)
    }

    /// Rules are made in one place each and named in the catalogue; findings come from rules (`rule.finding`), never
    /// from a bare id, outside the decoding of stored JSON.
    @Test func checksReportOnlyCataloguedRules() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 50)
        let declared = try NSRegularExpression(pattern: #"Rule\(\s*"([a-z0-9.-]+)""#)
        let bareFinding = try NSRegularExpression(pattern: #"Finding\(ruleID:"#)
        var declaredIDs: [String] = []
        for file in files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            for match in declared.matches(in: text, range: range) {
                declaredIDs.append(String(text[Range(match.range(at: 1), in: text)!]))
            }
            if !file.hasPrefix("Findings/") {
                #expect(bareFinding.numberOfMatches(in: text, range: range) == 0, "\(file) makes a finding from a bare rule id")
            }
        }
        #expect(declaredIDs.sorted() == RuleCatalogue.all.map(\.id).sorted())
    }
}
