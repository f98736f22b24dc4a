import ArgumentParser
import Captions

/// `--encoding`: the text encoding of caption files that are not UTF-8 (detected when not given).
struct CaptionInputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The caption file's text encoding, e.g. windows-1251 or gb2312 (default: detected; SRT falls back to windows-1252).", valueName: "name"))
    var encoding: String?

    /// Reads a caption file, turning its failure into the CLI's one-line error.
    func read(_ path: String, mode: WebVTTReader.Mode = .lenient) throws -> CaptionDocument {
        do {
            return try CaptionFile.read(path, encoding: encoding, mode: mode)
        } catch {
            throw CLIError(error.message.hasPrefix(path) ? error.message : "\(path): \(error.message)")
        }
    }
}

extension CaptionFormat: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument.lowercased() {
        case "vtt", "webvtt": self = .webvtt
        case "srt": self = .srt
        default: return nil
        }
    }

    public static var allValueStrings: [String] { ["vtt", "srt"] }
}

enum Diagnostics {
    /// Prints diagnostics on standard error as `file:line:column: severity: message [rule]`.
    static func print(_ diagnostics: [CaptionDiagnostic], file: String) {
        guard !diagnostics.isEmpty else { return }
        let style = TextStyle(enabled: Console.colorAllowed(on: 2))
        var text = ""
        for diagnostic in diagnostics {
            let place = diagnostic.line > 0 ? "\(file):\(diagnostic.line):\(diagnostic.column): " : "\(file): "
            let severity = switch diagnostic.severity {
            case .error: style.red("error")
            case .warning: style.yellow("warning")
            case .info: style.dim("note")
            }
            text += "\(place)\(severity): \(diagnostic.message) [\(diagnostic.rule)]\n"
        }
        Console.writeError(text)
    }
}
