import ArgumentParser
import Foundation
import MediaIO

// The entry point: parses the command line, runs the command, and maps every failure to the exit
// statuses of docs/cli.md (0 ok · 1 a check failed · 2 usage error, missing path, or an input a tool cannot read).
do {
    if let limit = ProcessInfo.processInfo.environment["MEDIALINT_MEDIA_TIME_LIMIT"] {
        guard let parsed = MediaTimeLimit(limit) else {
            throw CLIError("MEDIALINT_MEDIA_TIME_LIMIT=\(limit): expected seconds, or seconds+seconds-per-MB (e.g. 60 or 60+2)")
        }
        MediaTimeLimit.current = parsed
    }
    // A mistyped command: the nearest one named, not a list of unexpected arguments.
    let arguments = Array(CommandLine.arguments.dropFirst())
    if let first = arguments.first, !first.hasPrefix("-"), first != "help" {
        let names = MediaLintCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
        if !names.contains(first) {
            let hint = CommandSuggestion.nearest(first, in: names).map { "did you mean '\($0)'?" } ?? "the commands are \(names.joined(separator: ", "))"
            throw CLIError("unknown command '\(first)': \(hint) (medialint --help)")
        }
    }
    var command = try MediaLintCommand.parseAsRoot()
    try command.run()
} catch let error as any CommandLineFailure {
    Console.error(error.lineForUser)
    exit(ExitStatus.usageError.rawValue)
} catch {
    // ArgumentParser's own errors: help, version, completions (exit 0) and usage errors (our 2, not its 64).
    let code = MediaLintCommand.exitCode(for: error)
    if code == .validationFailure {
        FileHandle.standardError.write(Data((MediaLintCommand.fullMessage(for: error) + "\n").utf8))
        exit(ExitStatus.usageError.rawValue)
    }
    MediaLintCommand.exit(withError: error)
}
