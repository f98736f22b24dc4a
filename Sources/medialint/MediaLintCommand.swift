import ArgumentParser
import Findings
import Reports

/// `medialint`: the root command. Each subcommand is thin wiring over the library modules.
struct MediaLintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ToolInfo.name,
        abstract: "Check that audio and video are accessible: captions, timing, flashing, autoplaying sound.",
        discussion: """
            Exit status: 0 when nothing failed (warnings pass unless --strict), 1 when a check fails or a file \
            could not be checked, 2 for a usage error or a path that does not exist (the reason is printed on \
            standard error). Settings: .medialint.yml files, from each checked file's folder up.
            Shell completions (file paths, profiles, formats): medialint --generate-completion-script \
            bash|zsh|fish; make install installs them and the man page.
            """,
        version: ToolInfo.version,
        subcommands: [
            CheckCommand.self, ReportCommand.self, FlashCommand.self, SyncCommand.self, AccuracyCommand.self, LintCommand.self, TranscriptCommand.self,
            AutoplayCommand.self,
            ProbeCommand.self, CuesCommand.self, ConvertCommand.self, ShiftCommand.self, RulesCommand.self,
        ]
    )
}
