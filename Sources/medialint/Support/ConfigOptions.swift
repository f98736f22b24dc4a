import ArgumentParser

/// `--config FILE` and `--set SECTION.KEY=VALUE`: the settings every checking command reads the same way.
struct ConfigOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Settings file (default: the .medialint.yml files from each checked file's folder up).", valueName: "file"), completion: .file())
    var config: String?

    @Option(
        name: .customLong("set"), parsing: .singleValue,
        help: ArgumentHelp("Change one setting of the file (repeatable), e.g. flash.profile=bt1702 or lint.max-cps=17.", valueName: "section.key=value"))
    var assignments: [String] = []

    /// Finds the settings for each checked file.
    func discovery() -> ConfigDiscovery { ConfigDiscovery(explicitPath: config, assignments: assignments) }

    /// The settings for the file at `path`, given by name, with the `--set`s applied.
    func load(for path: String) throws -> ConfigFile { try discovery().settings(for: path) }
}
