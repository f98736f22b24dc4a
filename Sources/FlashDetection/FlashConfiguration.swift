/// Thresholds of a flash check. A profile only changes these numbers, never the pipeline; every one of them
/// can be overridden.
public struct FlashConfiguration: Sendable, Equatable {
    /// What the flashing area is measured against.
    public enum AreaBasis: String, Sendable, CaseIterable {
        /// Any 10° visual field: a 4:3 rectangle one third of the frame's width, anywhere in the frame (WCAG).
        case field
        /// The whole frame (ITU-R BT.1702, Ofcom).
        case frame
    }

    /// The profile these numbers started from (`wcag`, `wcag-aaa`, `bt1702`, `kwcag`).
    public var profile: String
    /// Guidelines a failure breaks, e.g. `WCAG 2.3.1`.
    public var guidelines: [String]
    /// A general transition: a change of relative luminance of at least this much (0–1)…
    public var luminanceChange: Double = 0.10
    /// …where the darker state is below this (nil: no darker-state rule).
    public var darkerStateLimit: Double? = 0.80
    /// Flashing counts when at least this fraction of the area basis transitions at once (0: any block).
    public var areaFraction: Double = 0.25
    public var areaBasis: AreaBasis = .field
    /// The most flashes per second allowed…
    public var maximumFlashesPerSecond: Double = 3
    /// …and whether reaching it already fails (the Korean band is 3–50 inclusive; WCAG fails above 3).
    public var maximumIsInclusive = false
    /// Red flashes: a state counts as saturated red when R/(R+G+B) is at least this…
    public var redSaturation: Double = 0.8
    /// …and a red transition is a change of (R−G−B)·320 (negatives as 0) greater than this.
    public var redChange: Double = 20
    public var detectsRed = true
    /// Warn about 4–6 transitions a second held for 4 s of any 5 s (an analysers' convention).
    public var detectsExtendedRisk = true
    /// Look for regular patterns (`pattern.regular`: ITU-R BT.1702, Ofcom): more than five light–dark pairs of
    /// stripes over more than `areaFraction` of the area basis for at least half a second. On for `bt1702`.
    public var detectsPatterns = false
    /// Still regular patterns fail too, not only moving, flashing or reversing ones: BT.1702 and Ofcom say harmful
    /// regular patterns should not be used (stillness makes them less provoking, not harmless). On for `bt1702`; WCAG
    /// has no pattern criterion, so under `wcag --patterns` a still pattern is a warning.
    public var stillPatternsFail = false
    /// Block size in pixels; nil chooses by width: a power of two near width/60, at least 8 (a grid of about
    /// 60 columns: 8 px up to SD, 16 at 720p, 32 at 1080p, 64 at 4K). The 10° field is then about 20
    /// columns wide. Finer blocks are more exact and cost more memory reads per frame.
    public var blockSize: Int?
    /// The sampling step inside a block (2: every other pixel of every other row). nil chooses by picture
    /// size: every pixel up to about 150,000 pixels (SD); above, one row through the middle of each block row
    /// (rows cost cache misses) and every n-th pixel along it for about 32,000 samples (every other pixel at
    /// 1080p and 720p).
    public var samplingStep: Int?

    /// The block size used for a picture `width` pixels wide.
    public func blockSize(width: Int) -> Int {
        if let blockSize { return max(1, blockSize) }
        let target = Double(width) / 60
        var size = 8
        while Double(size * 2) <= target * 1.4 { size *= 2 }
        return size
    }

    /// The horizontal and vertical sampling steps for a picture of `width` × `height`.
    public func sampling(width: Int, height: Int) -> (x: Int, y: Int) {
        let block = blockSize(width: width)
        if let samplingStep { return (max(1, samplingStep), max(1, samplingStep)) }
        guard width * height > 150_000 else { return (1, 1) }
        let rowsRead = (height + block - 1) / block
        return (max(1, min(block, Int((Double(width * rowsRead) / 32_000).rounded()))), block)
    }

    /// The number of transitions inside one second that fails: 7 for "more than 3 flashes", 6 for "3 or more".
    public var failingTransitionsPerSecond: Int {
        let doubled = maximumFlashesPerSecond * 2
        return maximumIsInclusive ? Int(doubled.rounded(.up)) : Int(doubled.rounded(.down)) + 1
    }

    public init(profile: String = "wcag", guidelines: [String] = ["WCAG 2.3.1", "KWCAG 3.3"]) {
        self.profile = profile
        self.guidelines = guidelines
    }

    /// The profiles by name.
    public static let profileNames = ["wcag", "wcag-aaa", "bt1702", "kwcag"]

    /// A profile's thresholds.
    public static func profile(_ name: String) -> FlashConfiguration? {
        switch name {
        case "wcag":
            // WCAG 2.3.1: no more than three general or red flashes in any second over 25% of any 10° field.
            return FlashConfiguration(profile: "wcag", guidelines: ["WCAG 2.3.1", "KWCAG 3.3"])
        case "wcag-aaa":
            // WCAG 2.3.2: nothing flashes more than three times a second, whatever its size or darker state.
            var configuration = FlashConfiguration(profile: "wcag-aaa", guidelines: ["WCAG 2.3.2"])
            configuration.areaFraction = 0
            configuration.darkerStateLimit = nil
            return configuration
        case "bt1702":
            // ITU-R BT.1702 / Ofcom: 20 cd/m² with the darker state below 160 cd/m² (0.10 and 0.80 of a
            // 200 cd/m² white) over 25% of the screen.
            var configuration = FlashConfiguration(profile: "bt1702", guidelines: ["ITU-R BT.1702"])
            configuration.areaBasis = .frame
            configuration.detectsPatterns = true
            configuration.stillPatternsFail = true
            return configuration
        case "kwcag":
            // Korean mobile app accessibility guideline 2.0, 3.3: avoid 3–50 flashes per second (KWCAG 2.2
            // allows up to 10% of a screen of 10 inches or more).
            var configuration = FlashConfiguration(profile: "kwcag", guidelines: ["KWCAG 3.3"])
            configuration.maximumIsInclusive = true
            configuration.areaBasis = .frame
            configuration.areaFraction = 0.10
            return configuration
        default:
            return nil
        }
    }
}
