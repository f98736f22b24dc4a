import CaptionQuality

/// The `lint` section: a profile with its numbers changed, rules turned off, the frame rate. The same for `lint` and
/// `check`.
struct LintSettings {
    static let keys: Set<String> = [
        "profile", "fps", "disable", "max-chars-per-line", "max-lines", "min-duration",
        "max-duration", "max-cps", "max-wpm", "min-gap-frames",
    ]

    var rules: QualityProfile
    var disabled: Set<String>
    var framesPerSecond: Double?

    /// The profile (`profile` given, else the section's, else netflix) with the section's numbers on top (`~` for
    /// none drops a rule's number).
    init(_ section: ConfigSection, profile: String?) throws {
        let name = try profile ?? section.string("profile") ?? "netflix"
        guard var rules = QualityProfile.named(name) else {
            throw CLIError(
                (profile == nil ? "\(section.source(of: "profile")): " : "")
                    + "unknown lint profile '\(name)' (\(QualityProfile.names.joined(separator: ", ")))")
        }
        func pick<T>(_ key: String, _ read: (String) throws -> T?, _ current: T?) throws -> T? {
            section.isNull(key) ? nil : try read(key) ?? current
        }
        rules.maxCharactersPerLine = try pick("max-chars-per-line", section.int, rules.maxCharactersPerLine)
        rules.maxLines = try pick("max-lines", section.int, rules.maxLines)
        rules.minDuration = try pick("min-duration", section.double, rules.minDuration)
        rules.maxDuration = try pick("max-duration", section.double, rules.maxDuration)
        rules.maxCharactersPerSecond = try pick("max-cps", section.double, rules.maxCharactersPerSecond)
        rules.maxWordsPerMinute = try pick("max-wpm", section.double, rules.maxWordsPerMinute)
        rules.minGapFrames = try pick("min-gap-frames", section.double, rules.minGapFrames)
        self.rules = rules
        disabled = Set(try section.strings("disable") ?? [])
        let known = Set(CaptionLinter.rules.map(\.id))
        if let unknown = disabled.sorted().first(where: { !known.contains($0) }) {
            throw CLIError(
                "\(section.source(of: "disable")): lint.disable: unknown rule '\(unknown)' (the rules are \(known.sorted().joined(separator: ", ")))")
        }
        framesPerSecond = try section.double("fps")
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
