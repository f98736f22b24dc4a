import Checks

/// The `sync` section: the timing tolerances. The same for `sync` and `check`.
enum SyncSettings {
    static let keys: Set<String> = ["tolerance", "fail-tolerance", "cue-tolerance"]

    /// Defaults (0.1 s warns, 0.25 s fails, a single cue 0.3 s off its speech warns), then the section, then
    /// `--tolerance`.
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
        let cue = try section.double("cue-tolerance") ?? 0.3
        try NumberRange.check(cue, "The sync cue tolerance (sync.cue-tolerance)", 0...60, above: true)
        var check = SyncCheck(tolerance: warn, failTolerance: fail)
        check.cueTolerance = cue
        return check
    }
}
