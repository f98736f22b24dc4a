import ArgumentParser
import Findings
import Reports

/// `medialint`: the root command. Each subcommand is thin wiring over the library modules.
struct MediaLintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ToolInfo.name,
        abstract: "Check that audio and video are accessible: captions, timing, flashing, autoplaying sound.",
        discussion: """
            Exit status: 0 when nothing is at error severity, 1 when a check fails, 2 for a usage error \
            or an input that could not be read (the reason is printed on standard error).
            Shell completions: medialint --generate-completion-script bash|zsh|fish
            """,
        version: ToolInfo.version,
        subcommands: [
            CheckCommand.self, ReportCommand.self, FlashCommand.self, SyncCommand.self, LintCommand.self, TranscriptCommand.self, AutoplayCommand.self,
            ProbeCommand.self, CuesCommand.self, ConvertCommand.self, ShiftCommand.self, RulesCommand.self,
        ]
    )
}
