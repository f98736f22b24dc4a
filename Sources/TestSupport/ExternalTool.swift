import Foundation

/// The command-line tools test media are made with (ffmpeg, sox, espeak-ng), run from PATH.
public enum ExternalTool {
    /// A tool that exited with an error, with what it wrote to standard error.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `tool` with `arguments`; throws its error output when it does not exit with 0.
    public static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(([tool] + arguments).joined(separator: " ")): \(String(decoding: message, as: UTF8.self))")
        }
    }

    /// Runs a shell command line (for pipelines such as `espeak-ng … | sox …`).
    public static func shell(_ command: String) throws { try run("sh", ["-c", command]) }
}
