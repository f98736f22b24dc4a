import Foundation
import TestSupport
import Testing

/// The man page's own sections (docs/man/sections.mdoc, put in place of the generated one-line EXIT STATUS by `make
/// man`): the exit-status contract, every environment variable the program reads, its files, examples that run.
@Suite struct ManPageTests {
    static let sections = Medialint.root.appendingPathComponent("docs/man/sections.mdoc")

    @Test func exitStatusEnvironmentFilesAndExamples() throws {
        let text = try String(contentsOf: Self.sections, encoding: .utf8)
        let headings = text.split(separator: "\n").filter { $0.hasPrefix(".Sh ") }
        #expect(headings == [#".Sh "EXIT STATUS""#, ".Sh ENVIRONMENT", ".Sh FILES", ".Sh EXAMPLES"])
        let statuses = text.split(separator: "\n").filter { $0.hasPrefix(".It ") && $0.dropFirst(4).allSatisfy(\.isNumber) }.map { $0.dropFirst(4) }
        #expect(statuses == ["0", "1", "2", "130"])
        // Every variable the program reads is documented (the test-only ones aside).
        var read: Set<String> = ["FORCE_COLOR", "CLICOLOR_FORCE"]
        let sources = Medialint.root.appendingPathComponent("Sources")
        for module in ["medialint", "Reports", "Checks", "Library", "MediaIO", "FileAccess", "Basics", "Captions", "Findings"] {
            let folder = sources.appendingPathComponent(module)
            for case let file as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)! where file.pathExtension == "swift" {
                let source = try String(contentsOf: file, encoding: .utf8)
                for match in source.matches(of: /environment\["([A-Z_]+)"\]/) { read.insert(String(match.1)) }
            }
        }
        var documented: Set<String> = []
        for match in text.matches(of: /\.It Ev ([A-Z_]+)(?: , Ev ([A-Z_]+))?/) {
            documented.insert(String(match.1))
            if let second = match.2 { documented.insert(String(second)) }
        }
        #expect(read.subtracting(documented).isEmpty, "not documented: \(read.subtracting(documented).sorted())")
        #expect(documented.subtracting(read).isEmpty, "documented but not read: \(documented.subtracting(read).sorted())")
        // Each example is a medialint command line whose options exist (parsed, not run: --help after it).
        let examples = text.split(separator: "\n").filter { $0.hasPrefix(".Dl $ medialint ") }.map {
            $0.dropFirst(".Dl $ medialint ".count).split(separator: " ").map(String.init)
        }
        #expect(examples.count >= 6)
        for example in examples {
            let help = try Medialint.run([example[0], "--help"])
            for option in example.dropFirst() where option.hasPrefix("-") {
                #expect(help.stdout.contains(option), "\(example.joined(separator: " ")): \(option)")
            }
        }
    }

    /// The sections are well-formed mdoc: groff renders them with no warning.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "groff renders the page"))
    func sectionsRenderWithoutWarnings() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("page.1")
        try (".Dd November 2026\n.Dt MEDIALINT 1\n.Os\n.Sh NAME\n.Nm medialint\n.Nd check media\n" + String(contentsOf: Self.sections, encoding: .utf8))
            .write(to: page, atomically: true, encoding: .utf8)
        let result = try Medialint.runTool("/usr/bin/groff", ["-mandoc", "-Tutf8", "-ww", "-z", page.path], in: directory)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }
}
