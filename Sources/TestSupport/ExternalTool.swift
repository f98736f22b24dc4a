import Foundation

/// The command-line tools test media are made with (ffmpeg, sox, espeak-ng, festival), run from PATH, so that the same
/// recipe makes the same bytes on every machine with the same tools' versions: sox neither dithers nor seeds its noise
/// from the clock (`SOX_OPTS`), and every file ffmpeg writes is bit-exact and encoded on one thread (an encoder's output
/// can depend on its thread count, which follows the machine's cores).
package enum ExternalTool {
    /// Set for every tool run: sox's global options `-D` (no dither: converting to 16 bits rounds) and `-R` (repeatable:
    /// `synth`'s noise and any other randomness from a fixed seed, a fixed time in headers).
    package static let reproducibleEnvironment = ["SOX_OPTS": "-D -R"]

    /// Output options put before the last argument of every ffmpeg run (its output file): no version or time in what
    /// the muxer writes, the encoders' bit-exact modes, one encoding thread.
    package static let reproducibleFFmpegOptions = ["-fflags", "+bitexact", "-flags", "+bitexact", "-threads", "1"]

    /// What `reproducibleEnvironment` and `reproducibleFFmpegOptions` make, for recipes: a change to either makes every
    /// medium anew.
    package static let reproducibility = "sox \(reproducibleEnvironment) ffmpeg \(reproducibleFFmpegOptions)"

    /// A tool that exited with an error, with what it wrote to standard error.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Runs `tool` with `arguments`; throws its error output when it does not exit with 0.
    package static func run(_ tool: String, _ arguments: [String]) throws { _ = try output(tool, arguments) }

    /// Runs `tool` with `arguments` and returns what it printed on standard output; throws its error output when it
    /// does not exit with 0.
    package static func output(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + (tool == "ffmpeg" ? reproducible(ffmpeg: arguments) : arguments)
        process.environment = ProcessInfo.processInfo.environment.merging(reproducibleEnvironment) { _, reproducible in reproducible }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Both pipes read to their end before waiting, so a tool that prints a lot cannot block on either.
        let errorReader = PipeDrain(errors)
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let message = errorReader.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(([tool] + arguments).joined(separator: " ")): \(String(decoding: message, as: UTF8.self))")
        }
        return String(decoding: printed, as: UTF8.self)
    }

    /// ffmpeg's `arguments` with `reproducibleFFmpegOptions` before the output file (the last argument), unless they
    /// only ask for its version.
    static func reproducible(ffmpeg arguments: [String]) -> [String] {
        guard arguments.count > 1 else { return arguments }
        return arguments.dropLast() + reproducibleFFmpegOptions + [arguments.last!]
    }

    /// Runs a shell command line (for pipelines such as `espeak-ng … | sox …`).
    package static func shell(_ command: String) throws { try run("sh", ["-c", command]) }

    /// The first line a tool prints of its version (`ffmpeg -version`, `sox --version` …), asked once per process;
    /// "missing" when the tool cannot be run. Part of every generated medium's recipe: a new version makes it anew.
    package static func version(_ tool: String) -> String {
        versionLock.lock()
        defer { versionLock.unlock() }
        if let known = versions[tool] { return known }
        let flag = tool == "ffmpeg" || tool == "ffprobe" ? "-version" : "--version"
        let line = ((try? output(tool, [flag])) ?? "missing").split(whereSeparator: \.isNewline).first.map(String.init) ?? "unknown"
        versions[tool] = line
        return line
    }

    private static let versionLock = NSLock()
    nonisolated(unsafe) private static var versions: [String: String] = [:]
}

/// Reads a pipe to its end on a thread of its own (so that a child writing to two pipes never blocks on one).
package final class PipeDrain: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    package init(_ pipe: Pipe) {
        Thread.detachNewThread { [self] in
            data = pipe.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything the pipe gave, once it is closed.
    package func wait() -> Data {
        done.wait()
        return data
    }
}
