import Foundation
import Reports

/// Standard output and error, and whether colour may be used on them.
enum Console {
    /// `--quiet`: no progress, notes or summaries; errors and warnings still said.
    nonisolated(unsafe) static var isQuiet = false

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
        guard !isQuiet else { return }
        let style = TextStyle(enabled: colorAllowed(on: STDERR_FILENO))
        writeError("medialint: \(style.dim("note:")) \(message)\n")
    }

    /// Writes text on standard error as it is (the progress line cleared first).
    static func writeError(_ text: String) {
        ProgressLine.clear()
        rawWriteError(text)
    }

    /// Writes text on standard error, leaving the progress line alone (it is the progress line's own drawing).
    static func rawWriteError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Colour on a terminal; never with `NO_COLOR` set (https://no-color.org); always, terminal or not, with
    /// `FORCE_COLOR` or `CLICOLOR_FORCE` set to anything but `0`; never with `TERM=dumb` unless forced.
    static func colorAllowed(on descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        for name in ["FORCE_COLOR", "CLICOLOR_FORCE"] {
            if let force = environment[name], !force.isEmpty, force != "0" { return true }
        }
        if environment["TERM"] == "dumb" { return false }
        return isatty(descriptor) == 1
    }
}
