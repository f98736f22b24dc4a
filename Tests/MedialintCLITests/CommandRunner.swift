import Foundation
import TestSupport

/// Runs the built `medialint` binary, as a user would, and captures what it prints.
struct CommandResult {
    let status: Int32
    let stdout: String
    let stderr: String
    /// True when the command did not end within its time limit and was killed.
    var timedOut = false
    /// True when the command was ended by a signal (`status` is then the signal's number).
    var signalled = false
}

enum Medialint {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `medialint` executable next to the test bundle (swift build puts products side by side).
    static var executable: URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("medialint")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/medialint")
    }

    static func media(_ name: String) -> String { root.appendingPathComponent("Media/\(name)").path }

    /// A fresh temporary directory; the caller removes it.
    static func temporaryDirectory() throws -> URL { try TemporaryFolder.make("cli") }

    /// Runs medialint; a command still running after `timeout` seconds is killed (a hang fails its test, it
    /// never stalls the run). `whileRunning` gets the process once started (to signal it, say).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], timeout: Double = 600, in directory: URL? = nil,
        whileRunning: ((Process) -> Void)? = nil, tool: String? = nil
    ) throws -> CommandResult {
        let process = Process()
        process.executableURL = tool.map { URL(fileURLWithPath: $0) } ?? executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? root
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let finished = DispatchSemaphore(value: 0)
        let killed = KillFlag()
        DispatchQueue.global().async {
            if finished.wait(timeout: .now() + timeout) == .timedOut {
                killed.set()
                kill(process.processIdentifier, SIGKILL)
            }
        }
        whileRunning?(process)
        // Read both pipes fully before waiting, so a large output cannot block the child.
        let errReader = PipeDrain(err)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = errReader.wait()
        process.waitUntilExit()
        finished.signal()
        return CommandResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), timedOut: killed.isSet,
            signalled: process.terminationReason == .uncaughtSignal)
    }
}

extension Medialint {
    /// Runs another program (`script`, a browser) the way `run` runs medialint.
    static func runTool(
        _ path: String, _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil, timeout: Double = 600
    ) throws -> CommandResult {
        try run(arguments, environment: environment, timeout: timeout, in: directory, tool: path)
    }
}

/// Set once, from the watchdog.
final class KillFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
