import Foundation
import Testing

/// The README cannot drift from the binary: every `console` example in it is run and its output compared, and every
/// option it names is one a command takes.
///
/// Commands naming `Media/…` run in the repository; the others (`talk.mp4`, `show.vtt`, `site/` …) run in a copy of
/// `Examples/readme/`, which holds the files they name, as a reader runs them. Examples of one block run in order in
/// the same folder (`sync … --in-place` changes the file the next example reads). A line `…` in an example stands for
/// any number of lines.
@Suite struct ReadmeExamplesTests {
    struct Example: CustomTestStringConvertible, Sendable {
        let line: Int
        let arguments: [String]
        let expected: [String]
        var testDescription: String { "README.md:\(line) medialint \(arguments.joined(separator: " "))" }
    }

    static let readme = Medialint.root.appendingPathComponent("README.md")

    /// The README's text, and its lines outside fenced code blocks.
    static func readmeLines() throws -> [String] {
        try String(contentsOf: readme, encoding: .utf8).components(separatedBy: "\n")
    }

    /// The `console` blocks, each a list of examples in the order the README gives them.
    static func examples() throws -> [[Example]] {
        var blocks: [[Example]] = []
        var inConsole = false
        for (index, raw) in try readmeLines().enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") {
                inConsole = !inConsole && line == "```console"
                if inConsole { blocks.append([]) }
                continue
            }
            guard inConsole else { continue }
            if raw.hasPrefix("$ medialint ") {
                let arguments = raw.dropFirst("$ medialint ".count).split(separator: " ").map(String.init)
                blocks[blocks.count - 1].append(Example(line: index + 1, arguments: arguments, expected: []))
            } else if let last = blocks[blocks.count - 1].last {
                blocks[blocks.count - 1][blocks[blocks.count - 1].count - 1] = Example(
                    line: last.line, arguments: last.arguments, expected: last.expected + [raw])
            }
        }
        return blocks
    }

    /// True when `lines` fit `pattern`, where a pattern line `…` matches any run of lines (none included).
    static func matches(_ lines: ArraySlice<String>, _ pattern: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return lines.isEmpty }
        if first.trimmingCharacters(in: .whitespaces) == "…" {
            let rest = pattern.dropFirst()
            return (lines.startIndex...lines.endIndex).contains { matches(lines[$0...], rest) }
        }
        guard let line = lines.first, line == first else { return false }
        return matches(lines.dropFirst(), pattern.dropFirst())
    }

    @Test func everyConsoleExamplePrintsWhatTheReadmeShows() throws {
        let blocks = try Self.examples()
        #expect(blocks.count >= 7, "the README's console examples were not found")
        #expect(blocks.joined().count >= 8)
        let examples = Medialint.root.appendingPathComponent("Examples/readme")
        for block in blocks {
            let directory = try Medialint.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            for name in try FileManager.default.contentsOfDirectory(atPath: examples.path) {
                try FileManager.default.copyItem(at: examples.appendingPathComponent(name), to: directory.appendingPathComponent(name))
            }
            for example in block {
                let inRepository = example.arguments.contains { $0.hasPrefix("Media/") }
                let result = try Medialint.run(example.arguments, environment: ["NO_COLOR": "1"], in: inRepository ? nil : directory)
                var printed = (result.stdout + result.stderr).components(separatedBy: "\n")
                if printed.last == "" { printed.removeLast() }
                #expect(
                    Self.matches(printed[...], example.expected[...]),
                    "\(example.testDescription) printed (exit \(result.status)):\n\(printed.joined(separator: "\n"))")
            }
        }
    }

    /// Every `--option` the README names in backticks is one some command takes (its help lists it).
    @Test func everyOptionTheReadmeNamesExists() throws {
        let commands = [
            "check", "flash", "sync", "accuracy", "lint", "transcript", "autoplay", "probe", "cues", "convert", "shift", "report", "rules",
        ]
        var help = CommandLineParsing.help()
        for command in commands {
            let text = CommandLineParsing.help(command)
            #expect(!text.isEmpty, "help \(command)")
            help += text
        }
        let offered = Set(Self.options(in: help))
        // Options of other programs the README shows (swift build, swift test).
        let foreign: Set<String> = ["--static-swift-stdlib", "--filter"]
        var named = Set<String>()
        var fenced = false
        for line in try Self.readmeLines() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
                continue
            }
            guard !fenced else { continue }
            for span in line.split(separator: "`", omittingEmptySubsequences: false).enumerated() where span.offset % 2 == 1 {
                named.formUnion(Self.options(in: String(span.element)))
            }
        }
        #expect(named.count >= 40, "the README's options were not found")
        let missing = named.subtracting(offered).subtracting(foreign)
        #expect(missing.isEmpty, "the README names options no command takes: \(missing.sorted())")
    }

    static func options(in text: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9-])--[a-z][a-z0-9-]*"#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range, in: text)!])
        }
    }

    /// The README's claim that every command that reports takes `--format` and `-o` (and `shift` `-o`).
    @Test func everyReportingCommandTakesFormatAndOutput() throws {
        for command in ["check", "flash", "sync", "accuracy", "lint", "transcript", "autoplay", "probe", "cues", "report", "rules", "shift"] {
            let help = CommandLineParsing.help(command)
            #expect(command == "shift" || help.contains("--format"), "\(command) has no --format")
            #expect(help.contains("-o, --output") || help.contains("-o <"), "\(command) has no -o")
        }
    }
}
