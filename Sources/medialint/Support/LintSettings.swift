import CaptionQuality

/// The `lint` section as written (`~` for none drops a rule's number).
struct LintSection: SettingsSection {
    static let name = "lint"
    enum Keys: String, CodingKey, CaseIterable {
        case profile, fps, disable
        case maxCharsPerLine = "max-chars-per-line", maxLines = "max-lines", minDuration = "min-duration", maxDuration = "max-duration"
        case maxCPS = "max-cps", maxWPM = "max-wpm", minGapFrames = "min-gap-frames"
    }

    var profile: String?
    var fps: Double?
    /// Rules turned off: a list, or one.
    var disable: [String]?
    var maxCharsPerLine: Setting<Int>?
    var maxLines: Setting<Int>?
    var minDuration: Setting<Double>?
    var maxDuration: Setting<Double>?
    var maxCPS: Setting<Double>?
    var maxWPM: Setting<Double>?
    var minGapFrames: Setting<Double>?

    init(from decoder: any Decoder) throws {
        let settings = try decoder.container(keyedBy: Keys.self)
        profile = try settings.value(.profile)
        fps = try settings.value(.fps)
        if settings.contains(.disable) {
            if let list = try? settings.decode([String].self, forKey: .disable) {
                disable = list
            } else if let one = try? settings.decode(String.self, forKey: .disable) {
                disable = [one]
            } else {
                throw DecodingError.typeMismatch([String].self, .init(codingPath: [Keys.disable], debugDescription: "a list of rules"))
            }
        }
        maxCharsPerLine = try settings.setting(.maxCharsPerLine)
        maxLines = try settings.setting(.maxLines)
        minDuration = try settings.setting(.minDuration)
        maxDuration = try settings.setting(.maxDuration)
        maxCPS = try settings.setting(.maxCPS)
        maxWPM = try settings.setting(.maxWPM)
        minGapFrames = try settings.setting(.minGapFrames)
    }
}

/// The `lint` section: a profile with its numbers changed, rules turned off, the frame rate. The same for `lint` and
/// `check`.
struct LintSettings {
    var rules: QualityProfile
    var disabled: Set<String>
    var framesPerSecond: Double?

    /// The profile (`profile` given, else the section's, else netflix) with the section's numbers on top (`~` for
    /// none drops a rule's number).
    init(_ section: ConfigSection, profile: String?) throws {
        let settings = try section.decode(LintSection.self)
        let name = profile ?? settings.profile ?? "netflix"
        guard var rules = QualityProfile.named(name) else {
            throw CLIError(
                (profile == nil ? "\(section.source(of: "profile")): " : "")
                    + "unknown lint profile '\(name)' (\(QualityProfile.names.joined(separator: ", ")))")
        }
        /// The setting when there is one (`~`: none), else the profile's.
        func pick<T>(_ setting: Setting<T>?, _ current: T?) -> T? {
            switch setting {
            case .none?: nil
            case .value(let value)?: value
            case nil: current
            }
        }
        rules.maxCharactersPerLine = pick(settings.maxCharsPerLine, rules.maxCharactersPerLine)
        rules.maxLines = pick(settings.maxLines, rules.maxLines)
        rules.minDuration = pick(settings.minDuration, rules.minDuration)
        rules.maxDuration = pick(settings.maxDuration, rules.maxDuration)
        rules.maxCharactersPerSecond = pick(settings.maxCPS, rules.maxCharactersPerSecond)
        rules.maxWordsPerMinute = pick(settings.maxWPM, rules.maxWordsPerMinute)
        rules.minGapFrames = pick(settings.minGapFrames, rules.minGapFrames)
        self.rules = rules
        disabled = Set(settings.disable ?? [])
        let known = Set(CaptionLinter.rules.map(\.id))
        if let unknown = disabled.sorted().first(where: { !known.contains($0) }) {
            throw CLIError(
                "\(section.source(of: "disable")): lint.disable: unknown rule '\(unknown)' (the rules are \(known.sorted().joined(separator: ", ")))")
        }
        framesPerSecond = settings.fps
    }

    /// The linter, every number within its sensible range; frame-based rules count at `framesPerSecond`, else 24.
    func linter(mediaDuration: Double? = nil) throws -> CaptionLinter {
        try NumberRange.check(rules.maxCharactersPerLine, "--max-chars-per-line (lint.max-chars-per-line)", 1...10_000)
        try NumberRange.check(rules.maxLines, "--max-lines (lint.max-lines)", 1...1000)
        try NumberRange.check(rules.minDuration, "--min-duration (lint.min-duration)", 0...86_400)
        try NumberRange.check(rules.maxDuration, "--max-duration (lint.max-duration)", 0...86_400, above: true)
        try NumberRange.check(rules.maxCharactersPerSecond, "--max-cps (lint.max-cps)", 0...1000, above: true)
        try NumberRange.check(rules.maxWordsPerMinute, "--max-wpm (lint.max-wpm)", 0...100_000, above: true)
        try NumberRange.check(rules.minGapFrames, "--min-gap-frames (lint.min-gap-frames)", 0...1000)
        try NumberRange.check(framesPerSecond, "--fps (lint.fps)", 0...1000, above: true)
        return CaptionLinter(profile: rules, framesPerSecond: framesPerSecond ?? 24, mediaDuration: mediaDuration, disabled: disabled)
    }
}
