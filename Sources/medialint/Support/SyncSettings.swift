import Checks

/// The `sync` section as written.
struct SyncSection: SettingsSection {
    static let name = "sync"
    enum Keys: String, CodingKey, CaseIterable {
        case tolerance, failTolerance = "fail-tolerance", cueTolerance = "cue-tolerance"
    }

    var tolerance: Double?
    var failTolerance: Double?
    var cueTolerance: Double?

    init(from decoder: any Decoder) throws {
        let settings = try decoder.container(keyedBy: Keys.self)
        tolerance = try settings.value(.tolerance)
        failTolerance = try settings.value(.failTolerance)
        cueTolerance = try settings.value(.cueTolerance)
    }
}

/// The `sync` section: the timing tolerances. The same for `sync` and `check`.
enum SyncSettings {
    /// Defaults (0.1 s warns, 0.25 s fails, a single cue 0.3 s off its speech warns), then the section, then
    /// `--tolerance`.
    static func check(_ section: ConfigSection, tolerance: Tolerance? = nil) throws -> SyncCheck {
        let settings = try section.decode(SyncSection.self)
        var warn = settings.tolerance ?? 0.1
        var fail = settings.failTolerance ?? max(0.25, warn)
        if let tolerance {
            warn = tolerance.warn
            fail = tolerance.fail ?? max(fail, warn)
        }
        guard warn > 0, fail >= warn else { throw CLIError("sync tolerances must be positive, the fail tolerance at least the warning one") }
        try NumberRange.check(warn, "The sync tolerance (--tolerance, sync.tolerance)", 0...60, above: true)
        try NumberRange.check(fail, "The sync fail tolerance (--tolerance, sync.fail-tolerance)", 0...60, above: true)
        let cue = settings.cueTolerance ?? 0.3
        try NumberRange.check(cue, "The sync cue tolerance (sync.cue-tolerance)", 0...60, above: true)
        var check = SyncCheck(tolerance: warn, failTolerance: fail)
        check.cueTolerance = cue
        return check
    }
}
