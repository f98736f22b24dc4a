import FlashDetection

/// The `flash` section as written (`darker-state: ~` switches the darker-state limit off).
struct FlashSection: SettingsSection {
    static let name = "flash"
    enum Keys: String, CodingKey, CaseIterable {
        case profile, area, inclusive, red, extended, patterns
        case luminanceChange = "luminance-change", darkerState = "darker-state", areaBasis = "area-basis", maxFlashes = "max-flashes"
        case redSaturation = "red-saturation", redChange = "red-change", blockSize = "block-size", samplingStep = "sampling-step"
        case exactDecode = "exact-decode"
    }

    var profile: String?
    var luminanceChange: Double?
    var darkerState: Setting<Double>?
    var area: Double?
    var areaBasis: String?
    var maxFlashes: Double?
    var inclusive: Bool?
    var red: Bool?
    var redSaturation: Double?
    var redChange: Double?
    var extended: Bool?
    var patterns: Bool?
    var blockSize: Int?
    var samplingStep: Int?
    var exactDecode: Bool?

    init(from decoder: any Decoder) throws {
        let settings = try decoder.container(keyedBy: Keys.self)
        profile = try settings.value(.profile)
        luminanceChange = try settings.value(.luminanceChange)
        darkerState = try settings.setting(.darkerState)
        area = try settings.value(.area)
        areaBasis = try settings.value(.areaBasis)
        maxFlashes = try settings.value(.maxFlashes)
        inclusive = try settings.value(.inclusive)
        red = try settings.value(.red)
        redSaturation = try settings.value(.redSaturation)
        redChange = try settings.value(.redChange)
        extended = try settings.value(.extended)
        patterns = try settings.value(.patterns)
        blockSize = try settings.value(.blockSize)
        samplingStep = try settings.value(.samplingStep)
        exactDecode = try settings.value(.exactDecode)
    }
}

/// The `flash` section: a profile and thresholds on top of it. The same for `flash` and `check`.
enum FlashSettings {
    /// `exact-decode`: decode with the in-loop filters, as a player does (default: the fast decode).
    static func exactDecode(_ section: ConfigSection) throws -> Bool {
        try section.decode(FlashSection.self).exactDecode ?? false
    }

    /// The profile (`profile` given, else the section's, else wcag) with the section's thresholds on top.
    static func configuration(_ section: ConfigSection, profile: String?) throws -> FlashConfiguration {
        let settings = try section.decode(FlashSection.self)
        let name = profile ?? settings.profile ?? "wcag"
        guard var configuration = FlashConfiguration.profile(name) else {
            throw CLIError(
                (profile == nil ? "\(section.source(of: "profile")): " : "")
                    + "unknown flash profile '\(name)' (\(FlashConfiguration.profileNames.joined(separator: ", ")))")
        }
        if let value = settings.luminanceChange { configuration.luminanceChange = value }
        switch settings.darkerState {
        case .none?: configuration.darkerStateLimit = nil
        case .value(let value)?: configuration.darkerStateLimit = value
        case nil: break
        }
        if let value = settings.area { configuration.areaFraction = value }
        if let value = settings.areaBasis {
            guard let basis = FlashConfiguration.AreaBasis(rawValue: value) else {
                throw CLIError("\(section.source(of: "area-basis")): flash.area-basis must be field or frame")
            }
            configuration.areaBasis = basis
        }
        if let value = settings.maxFlashes { configuration.maximumFlashesPerSecond = value }
        if let value = settings.inclusive { configuration.maximumIsInclusive = value }
        if let value = settings.red { configuration.detectsRed = value }
        if let value = settings.redSaturation { configuration.redSaturation = value }
        if let value = settings.redChange { configuration.redChange = value }
        if let value = settings.extended { configuration.detectsExtendedRisk = value }
        if let value = settings.patterns { configuration.detectsPatterns = value }
        if let value = settings.blockSize { configuration.blockSize = value }
        if let value = settings.samplingStep { configuration.samplingStep = value }
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
