import Reports
import Foundation

/// Standard output and error, and whether colour may be used on them.
enum Console {
    /// Prints `message` on standard error as `medialint: error: message` (one line).
    static func error(_ message: String) {
        let style = TextStyle(enabled: colorAllowed(on: STDERR_FILENO))
        writeError("medialint: \(style.red("error:")) \(message)\n")
    }

    /// Prints `message` on standard error as `medialint: warning: message` (something the user should know).
    static func warning(_ message: String) {
        let style = TextStyle(enabled: colorAllowed(on: STDERR_FILENO))
        writeError("medialint: \(style.yellow("warning:")) \(message)\n")
    }

    /// Prints `message` on standard error as `medialint: note: message` (what was done, for people).
    static func note(_ message: String) {
        let style = TextStyle(enabled: colorAllowed(on: STDERR_FILENO))
        writeError("medialint: \(style.dim("note:")) \(message)\n")
    }

    /// Writes text on standard error as it is.
    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Colour only on a terminal, never with `NO_COLOR` set (https://no-color.org) or `TERM=dumb`.
    static func colorAllowed(on descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        return isatty(descriptor) == 1
    }
}
