import ArgumentParser
import FlashDetection
import Foundation
import Checks
import Library
import MediaIO
import Findings
import Reports

/// The options that change flash thresholds.
struct FlashThresholdOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Least change of relative luminance (0–1) that is a transition.", valueName: "amount"))
    var luminanceChange: Double?

    @Option(help: ArgumentHelp("The darker state must be below this relative luminance (0–1); 'none' to drop the rule.", valueName: "limit"))
    var darkerState: String?

    @Option(help: ArgumentHelp("Flashing counts from this fraction of the area basis (0–1, or a percentage like 25%).", valueName: "fraction"))
    var area: String?

    @Option(help: ArgumentHelp("What the area is a fraction of: field (any 10° visual field) or frame.", valueName: "basis"))
    var areaBasis: FlashConfiguration.AreaBasis?

    @Option(help: ArgumentHelp("Most flashes allowed in any second.", valueName: "count"))
    var maxFlashes: Double?

    @Option(help: ArgumentHelp("Red saturation: R/(R+G+B) at least this is saturated red.", valueName: "ratio"))
    var redSaturation: Double?

    @Option(help: ArgumentHelp("Least change of (R−G−B)·320 that is a red transition.", valueName: "amount"))
    var redChange: Double?

    @Flag(help: "Do not check red flashes.")
    var noRed = false

    @Flag(help: "Do not warn about extended flashing (4–6 transitions a second for 4 s).")
    var noExtended = false

    @Option(help: ArgumentHelp("Block size in pixels for the per-region analysis (default: about width/60, at least 8: 32 at 1080p).", valueName: "pixels"))
    var blockSize: Int?

    @Option(
        help: ArgumentHelp(
            "Read every n-th pixel of every n-th row inside a block (1 reads all; default: by picture size, about 150,000 pixels a frame).", valueName: "n"))
    var samplingStep: Int?

    static let configKeys: Set<String> = [
        "profile", "luminance-change", "darker-state", "area", "area-basis", "max-flashes",
        "inclusive", "red", "red-saturation", "red-change", "extended", "block-size", "sampling-step",
    ]

    /// Profile, then the config file's `flash` section, then these options.
    func configuration(profile: String?, config: ConfigFile) throws -> FlashConfiguration {
        let section = try config.section("flash", keys: Self.configKeys)
        let configured = try section.string("profile")
        let name = profile ?? configured ?? "wcag"
        guard var configuration = FlashConfiguration.profile(name) else {
            throw CLIError("\(section.file): unknown flash profile '\(name)' (\(FlashConfiguration.profileNames.joined(separator: ", ")))")
        }
        if let value = try section.double("luminance-change") { configuration.luminanceChange = value }
        if section.isNull("darker-state") { configuration.darkerStateLimit = nil }
        if let value = try section.double("darker-state") { configuration.darkerStateLimit = value }
        if let value = try section.double("area") { configuration.areaFraction = value }
        if let value = try section.string("area-basis") {
            guard let basis = FlashConfiguration.AreaBasis(rawValue: value) else { throw CLIError("\(section.file): flash.area-basis must be field or frame") }
            configuration.areaBasis = basis
        }
        if let value = try section.double("max-flashes") { configuration.maximumFlashesPerSecond = value }
        if let value = try section.bool("inclusive") { configuration.maximumIsInclusive = value }
        if let value = try section.bool("red") { configuration.detectsRed = value }
        if let value = try section.double("red-saturation") { configuration.redSaturation = value }
        if let value = try section.double("red-change") { configuration.redChange = value }
        if let value = try section.bool("extended") { configuration.detectsExtendedRisk = value }
        if let value = try section.int("block-size") { configuration.blockSize = value }
        if let value = try section.int("sampling-step") { configuration.samplingStep = value }

        if let luminanceChange { configuration.luminanceChange = luminanceChange }
        if let darkerState {
            if darkerState == "none" {
                configuration.darkerStateLimit = nil
            } else {
                guard let limit = Double(darkerState) else { throw ValidationError("--darker-state takes a number or 'none'.") }
                configuration.darkerStateLimit = limit
            }
        }
        if let area {
            let isPercent = area.hasSuffix("%")
            guard let value = Double(isPercent ? String(area.dropLast()) : area) else {
                throw ValidationError("--area takes a fraction (0.25) or a percentage (25%).")
            }
            configuration.areaFraction = isPercent ? value / 100 : value
        }
        if let areaBasis { configuration.areaBasis = areaBasis }
        if let maxFlashes { configuration.maximumFlashesPerSecond = maxFlashes }
        if let redSaturation { configuration.redSaturation = redSaturation }
        if let redChange { configuration.redChange = redChange }
        if noRed { configuration.detectsRed = false }
        if noExtended { configuration.detectsExtendedRisk = false }
        if let blockSize { configuration.blockSize = blockSize }
        if let samplingStep { configuration.samplingStep = samplingStep }
        // Each value, from the profile, the settings file or an option, within its sensible range.
        try NumberRange.check(configuration.areaFraction, "The flash area (--area, flash.area)", 0...1)
        try NumberRange.check(configuration.luminanceChange, "The luminance change (--luminance-change, flash.luminance-change)", 0...1, above: true)
        try NumberRange.check(configuration.darkerStateLimit, "The darker state (--darker-state, flash.darker-state)", 0...1)
        try NumberRange.check(configuration.maximumFlashesPerSecond, "The most flashes a second (--max-flashes, flash.max-flashes)", 0...1000, above: true)
        try NumberRange.check(configuration.redSaturation, "The red saturation (--red-saturation, flash.red-saturation)", 0...1)
        try NumberRange.check(configuration.redChange, "The red change (--red-change, flash.red-change)", 0...1000, above: true)
        try NumberRange.check(configuration.blockSize, "The block size (--block-size, flash.block-size)", 1...4096)
        try NumberRange.check(configuration.samplingStep, "The sampling step (--sampling-step, flash.sampling-step)", 1...1024)
        return configuration
    }
}
