import ArgumentParser
import Basics
import Findings
import Foundation
import Reports

/// `-o FILE`: where a command's output goes (standard output by default). Files are written atomically.
struct OutputOptions: ParsableArguments {
    @Option(
        name: [.short, .customLong("output")], help: ArgumentHelp("Write the output to this file instead of standard output.", valueName: "file"),
        completion: .file())
    var output: String?

    @Flag(name: [.short, .long], help: "No progress, notes or summaries on standard error (errors and warnings still).")
    var quiet = false

    func validate() throws {
        // Read by everything that writes to standard error, from the start of the run.
        Console.isQuiet = quiet
    }

    /// The style for text output: colour only when printing to a terminal that allows it.
    var textStyle: TextStyle {
        TextStyle(enabled: output == nil && Console.colorAllowed(on: STDOUT_FILENO))
    }

    /// The format `-o`'s file name implies when `--format` is not given: `.json` json, `.jsonl`/`.ndjson` jsonl,
    /// `.sarif` sarif, `.xml` junit, `.html`/`.htm` html — made by `make` from those names; nil for others.
    func impliedFormat<Format>(_ make: (String) -> Format?) -> Format? {
        guard let output, output != "-", let implied = Self.formatName(of: output), implied != "markdown" else { return nil }
        return make(implied)
    }

    /// The format a file's name promises: `json`, `jsonl`, `sarif`, `junit`, `html`, `markdown`; nil for others.
    static func formatName(of path: String) -> String? {
        let name = (path as NSString).lastPathComponent.lowercased()
        return switch (name as NSString).pathExtension {
        case "json": name.hasSuffix(".sarif.json") ? "sarif" : "json"
        case "jsonl", "ndjson": "jsonl"
        case "sarif": "sarif"
        case "xml": "junit"
        case "html", "htm": "html"
        case "md", "markdown": "markdown"
        default: nil
        }
    }

    /// Throws when no `--format` is given and `-o`'s extension names a report format the command does not write
    /// (`probe -o info.html`): writing text under that name would surprise. `formats` are the command's own (by the
    /// names `impliedFormat` uses); `command`, its name for the message.
    func refuseUnwrittenFormat(chosen: Bool, formats: Set<String>, command: String) throws {
        guard !chosen, let output, output != "-", let implied = Self.formatName(of: output), !formats.contains(implied) else { return }
        let shown = ["json": "JSON", "jsonl": "JSON Lines", "sarif": "SARIF", "junit": "JUnit XML", "html": "HTML", "markdown": "Markdown"]
        let names = (["text"] + formats.sorted()).map { shown[$0] ?? $0 }
        let own = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " or " + names.last!
        throw CLIError("-o \(output): \(command) writes \(own), not \(shown[implied] ?? implied); give --format to write one of those to that file")
    }

    /// Throws when `-o` names one of the command's inputs (by name, link or hard link), or any other file the run has
    /// read so far (`RunInputs`: settings files, say): a report never replaces what it reports on. The inputs are noted
    /// for the outputs refused later (`--write-baseline`).
    func refuse(inputs: [String]) throws {
        RunInputs.add(inputs)
        if let output { try OutputStream.refuseInputs(output, RunInputs.all) }
    }

    /// Writes `text` to the chosen destination.
    func emit(_ text: String) throws {
        try OutputStream.write(to: output ?? "-") { sink in
            var text = text
            text.withUTF8 { sink.write($0) }
        }
    }

    /// Runs `body` with a sink that writes bytes to the chosen destination as they are made.
    func stream(_ body: (OutputSink) throws -> Void) throws {
        try OutputStream.write(to: output ?? "-", body)
    }
}

extension JSONWriter {
    /// A writer that hands its bytes to `sink` a chunk at a time (call `finish()` at the end).
    static func streaming(pretty: Bool, to sink: OutputSink) -> JSONWriter {
        JSONWriter(pretty: pretty) { sink.write($0) }
    }
}
