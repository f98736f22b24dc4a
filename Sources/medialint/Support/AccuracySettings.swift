import Checks

/// The `accuracy` section as written: `accuracy: {enabled: true, language: en}`, or `accuracy: true` for short.
struct AccuracySection: SettingsSection {
    static let name = "accuracy"
    enum Keys: String, CodingKey, CaseIterable {
        case enabled, language
    }

    var enabled: Bool?
    var language: String?

    init(from decoder: any Decoder) throws {
        let settings = try decoder.container(keyedBy: Keys.self)
        enabled = try settings.value(.enabled)
        language = try settings.value(.language)
    }
}

/// Whether `check` checks each caption source's words against the speech (`--accuracy`, or the section's `enabled`),
/// and in what language captions that do not say theirs are.
enum AccuracySettings {
    static func check(_ section: ConfigSection, forced: Bool = false) throws -> AccuracyCheck? {
        let settings = try section.decode(AccuracySection.self)
        guard forced || settings.enabled == true else { return nil }
        var check = AccuracyCheck()
        check.language = settings.language
        return check
    }
}
