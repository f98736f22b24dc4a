import Foundation
import Testing

/// The shape of the sources: no type so long that no one reads it whole, and rule ids written once, where their rule
/// is declared (everything else names the `Rule`).
@Suite struct SourceShapeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every Swift source of the package (generated tables aside), as (path, lines).
    static func sources() throws -> [(path: String, lines: [String])] {
        var found: [(String, [String])] = []
        for top in ["Sources", "Examples"] {
            let folder = root.appendingPathComponent(top)
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files.sorted() where file.hasSuffix(".swift") && !file.hasSuffix("+Generated.swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                found.append(("\(top)/\(file)", text.components(separatedBy: "\n")))
            }
        }
        return found
    }

    /// A type declared at the top level runs from its declaration to the first line that is just `}`; its extensions
    /// (a stage of its work in a file of its own) are counted apart.
    @Test func noTypeIsOverSixHundredLines() throws {
        let declaration = try NSRegularExpression(
            pattern: #"^(@\w+(\([^)]*\))? )*((public|package|private|fileprivate|internal|final|indirect) )*(struct|class|enum|actor|protocol) (\w+)"#)
        var long: [String] = []
        let sources = try Self.sources()
        #expect(sources.count > 100)
        for (path, lines) in sources {
            for (index, line) in lines.enumerated() {
                guard let match = declaration.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { continue }
                let end = lines[(index + 1)...].firstIndex(of: "}") ?? lines.count
                if end - index + 1 > 600 { long.append("\(path): \(line[Range(match.range(at: 6), in: line)!]) (\(end - index + 1) lines)") }
            }
        }
        #expect(long.isEmpty, "types over 600 lines: \(long)")
    }

    /// A rule's id is written where the rule is declared (`Rule("sync.offset", …)`) and nowhere else in the code: a
    /// finding, a set of rules or a filter names the `Rule`, so a misspelt id is a compile error, not a finding lost.
    @Test func ruleIDsAreWrittenOnlyWhereTheirRuleIsDeclared() throws {
        let sources = try Self.sources()
        let declared = try NSRegularExpression(pattern: #"Rule\(\s*"([a-z]+\.[a-z0-9-]+)""#)
        var ids = Set<String>()
        for (_, lines) in sources {
            let text = lines.joined(separator: "\n")
            for match in declared.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                ids.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        #expect(ids.contains("sync.offset") && ids.contains("hls.segment") && ids.contains("lint.overlap") && ids.count > 40)
        let literal = try NSRegularExpression(pattern: #""([a-z]+\.[a-z0-9-]+)""#)
        var elsewhere: [String] = []
        for (path, lines) in sources {
            for (index, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                if line.contains("hasPrefix(\"hls.") { elsewhere.append("\(path):\(index + 1): \(line)") }
                // The declaration itself: `Rule(` then the id on its own line, or on the same line.
                if line.range(of: #"^\s*"[a-z]+\.[a-z0-9-]+", title:"#, options: .regularExpression) != nil { continue }
                for match in literal.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                    let id = String(line[Range(match.range(at: 1), in: line)!])
                    if ids.contains(id), !line.contains("Rule(\"\(id)\"") { elsewhere.append("\(path):\(index + 1): \(id)") }
                }
            }
        }
        #expect(elsewhere.isEmpty, "rule ids written outside their rule's declaration: \(elsewhere)")
    }

    /// The package's issues are findings of catalogue rules, not a type of their own.
    @Test func noIssueTypeBesideFindings() throws {
        let named = try Self.sources().filter { $0.lines.contains { $0.contains("HLSPackageIssue") } }.map(\.path)
        #expect(named.isEmpty, "\(named)")
    }
}
