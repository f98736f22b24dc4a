import ArgumentParser

@testable import medialint

/// The command line's parsing and validation in this process, as swift-argument-parser's own tests do it: what
/// `medialint ARGUMENTS` would refuse before running anything, its help and its completion scripts — no binary spawned.
/// (The binary is run for what only it shows: golden output and exit statuses; see `Medialint.run`.)
enum CommandLineParsing {
    /// nil when `arguments` parse and validate (the command would run); else what the command line prints and its exit
    /// status — 2 for a usage error, as `main.swift` maps ArgumentParser's, 0 for help.
    static func refusal(_ arguments: [String]) -> (status: Int32, message: String)? {
        do {
            _ = try MediaLintCommand.parseAsRoot(arguments)
            return nil
        } catch {
            let code = MediaLintCommand.exitCode(for: error)
            return (code == .validationFailure ? ExitStatus.usageError.rawValue : code.rawValue, MediaLintCommand.fullMessage(for: error))
        }
    }

    /// What `medialint help COMMAND` prints (`medialint --help` without a command), 80 columns wide as on a pipe.
    static func help(_ command: String? = nil) -> String {
        guard let command else { return MediaLintCommand.helpMessage(columns: 80) }
        guard let subcommand = MediaLintCommand.configuration.subcommands.first(where: { $0.configuration.commandName == command }) else {
            return ""
        }
        return MediaLintCommand.helpMessage(for: subcommand, columns: 80)
    }

    /// `medialint --generate-completion-script SHELL`.
    static func completionScript(_ shell: CompletionShell) -> String { MediaLintCommand.completionScript(for: shell) }
}
