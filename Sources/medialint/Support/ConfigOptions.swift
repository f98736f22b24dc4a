import ArgumentParser

/// `--config FILE` and `--set SECTION.KEY=VALUE`: the settings every checking command reads the same way.
struct ConfigOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Settings file (default: .medialint.yml here, if any).", valueName: "file"))
    var config: String?

    @Option(
        name: .customLong("set"), parsing: .singleValue,
        help: ArgumentHelp("Change one setting of the file (repeatable), e.g. flash.profile=bt1702 or lint.max-cps=17.", valueName: "section.key=value"))
    var assignments: [String] = []

    /// The file with the `--set`s applied.
    func load() throws -> ConfigFile {
        var file = try ConfigFile(explicitPath: config)
        for assignment in assignments { try file.set(assignment) }
        return file
    }
}
