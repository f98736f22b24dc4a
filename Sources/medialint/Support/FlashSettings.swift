import FlashDetection

/// The `flash` section: a profile and thresholds on top of it. The same for `flash` and `check`.
enum FlashSettings {
    static let keys: Set<String> = [
        "profile", "luminance-change", "darker-state", "area", "area-basis", "max-flashes",
        "inclusive", "red", "red-saturation", "red-change", "extended", "block-size", "sampling-step", "exact-decode", "patterns",
    ]

    /// `exact-decode`: decode with the in-loop filters, as a player does (default: the fast decode).
    static func exactDecode(_ section: ConfigSection) throws -> Bool {
        try section.bool("exact-decode") ?? false
    }

    /// The profile (`profile` given, else the section's, else wcag) with the section's thresholds on top.
    static func configuration(_ section: ConfigSection, profile: String?) throws -> FlashConfiguration {
        let name = try profile ?? section.string("profile") ?? "wcag"
        guard var configuration = FlashConfiguration.profile(name) else {
            throw CLIError(
                (profile == nil ? "\(section.source(of: "profile")): " : "")
                    + "unknown flash profile '\(name)' (\(FlashConfiguration.profileNames.joined(separator: ", ")))")
        }
        if let value = try section.double("luminance-change") { configuration.luminanceChange = value }
        if section.isNull("darker-state") { configuration.darkerStateLimit = nil }
        if let value = try section.double("darker-state") { configuration.darkerStateLimit = value }
        if let value = try section.double("area") { configuration.areaFraction = value }
        if let value = try section.string("area-basis") {
            guard let basis = FlashConfiguration.AreaBasis(rawValue: value) else {
                throw CLIError("\(section.source(of: "area-basis")): flash.area-basis must be field or frame")
            }
            configuration.areaBasis = basis
        }
        if let value = try section.double("max-flashes") { configuration.maximumFlashesPerSecond = value }
        if let value = try section.bool("inclusive") { configuration.maximumIsInclusive = value }
        if let value = try section.bool("red") { configuration.detectsRed = value }
        if let value = try section.double("red-saturation") { configuration.redSaturation = value }
        if let value = try section.double("red-change") { configuration.redChange = value }
        if let value = try section.bool("extended") { configuration.detectsExtendedRisk = value }
        if let value = try section.bool("patterns") { configuration.detectsPatterns = value }
        if let value = try section.int("block-size") { configuration.blockSize = value }
        if let value = try section.int("sampling-step") { configuration.samplingStep = value }
        return configuration
    }

    /// Each value, from the profile, the settings or an option, within its sensible range.
    static func checkRanges(_ configuration: FlashConfiguration) throws {
        try NumberRange.check(configuration.areaFraction, "The flash area (--area, flash.area)", 0...1)
        try NumberRange.check(configuration.luminanceChange, "The luminance change (--luminance-change, flash.luminance-change)", 0...1, above: true)
        try NumberRange.check(configuration.darkerStateLimit, "The darker state (--darker-state, flash.darker-state)", 0...1)
        try NumberRange.check(configuration.maximumFlashesPerSecond, "The most flashes a second (--max-flashes, flash.max-flashes)", 0...1000, above: true)
        try NumberRange.check(configuration.redSaturation, "The red saturation (--red-saturation, flash.red-saturation)", 0...1)
        try NumberRange.check(configuration.redChange, "The red change (--red-change, flash.red-change)", 0...1000, above: true)
        try NumberRange.check(configuration.blockSize, "The block size (--block-size, flash.block-size)", 1...4096)
        try NumberRange.check(configuration.samplingStep, "The sampling step (--sampling-step, flash.sampling-step)", 1...1024)
    }
}
