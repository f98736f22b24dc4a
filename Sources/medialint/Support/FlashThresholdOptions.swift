import ArgumentParser
import Checks
import Findings
import FlashDetection
import Foundation
import MediaIO

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

    @Flag(
        inversion: .prefixedNo,
        help:
            "Look for harmful regular patterns (pattern.regular: more than five light–dark pairs of stripes over the profile's area for 0.5 s; default: on for bt1702)."
    )
    var patterns: Bool?

    @Option(help: ArgumentHelp("Block size in pixels for the per-region analysis (default: about width/60, at least 8: 32 at 1080p).", valueName: "pixels"))
    var blockSize: Int?

    @Option(
        help: ArgumentHelp(
            "Read every n-th pixel of every n-th row inside a block (1 reads all; default: by picture size, about 150,000 pixels a frame).", valueName: "n"))
    var samplingStep: Int?

    /// The profile and the `flash` settings (FlashSettings), then these options.
    func configuration(profile: String?, config: ConfigFile) throws -> FlashConfiguration {
        var configuration = try FlashSettings.configuration(config.section("flash"), profile: profile)
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
        if let patterns { configuration.detectsPatterns = patterns }
        if let blockSize { configuration.blockSize = blockSize }
        if let samplingStep { configuration.samplingStep = samplingStep }
        try FlashSettings.checkRanges(configuration)
        return configuration
    }
}
