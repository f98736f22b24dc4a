import Checks

/// The `sync` section: the timing tolerances. The same for `sync` and `check`.
enum SyncSettings {
    static let keys: Set<String> = ["tolerance", "fail-tolerance"]

    /// Defaults (0.1 s warns, 0.25 s fails), then the section, then `--tolerance`.
    static func check(_ section: ConfigSection, tolerance: Tolerance? = nil) throws -> SyncCheck {
        var warn = try section.double("tolerance") ?? 0.1
        var fail = try section.double("fail-tolerance") ?? max(0.25, warn)
        if let tolerance {
            warn = tolerance.warn
            fail = tolerance.fail ?? max(fail, warn)
        }
        guard warn > 0, fail >= warn else { throw CLIError("sync tolerances must be positive, the fail tolerance at least the warning one") }
        try NumberRange.check(warn, "The sync tolerance (--tolerance, sync.tolerance)", 0...60, above: true)
        try NumberRange.check(fail, "The sync fail tolerance (--tolerance, sync.fail-tolerance)", 0...60, above: true)
        return SyncCheck(tolerance: warn, failTolerance: fail)
    }
}
