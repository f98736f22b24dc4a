import Basics
import Findings
import MediaIO
import Reports

/// What a tool command (`probe`, `cues`, `transcript`) prints with `--format json` when its input cannot be read:
/// `{"tool", "version", "file", "error": {"kind"?, "message"}}` — a valid document for scripts, while standard
/// error says why and the exit status is 2 as ever (docs/cli.md, "Other JSON").
enum FailureDocument {
    static func emit(file: String, message: String, kind: String? = nil, to output: OutputOptions) {
        var error: [(String, JSONValue)] = []
        if let kind { error.append(("kind", .string(kind))) }
        error.append(("message", .string(message)))
        let document = JSONValue.object([
            ("tool", .string(ToolInfo.name)), ("version", .string(ToolInfo.version)), ("file", .string(file)), ("error", .object(error)),
        ])
        // Said on standard error by the caller; a document that cannot be written adds nothing to that.
        try? output.emit(document.serialized(pretty: true) + "\n")
    }

    /// Runs `body`; when it throws a read failure (a media or caption error) and `json` is set, prints the failure
    /// document for `file` first, then rethrows.
    static func guarding<T>(_ file: String, json: Bool, to output: OutputOptions, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as MediaError where json {
            emit(file: file, message: error.reason, kind: error.kind.rawValue, to: output)
            throw error
        } catch let error as CLIError where json {
            emit(file: file, message: error.message, to: output)
            throw error
        }
    }
}
