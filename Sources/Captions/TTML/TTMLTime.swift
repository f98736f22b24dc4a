import Basics

/// The timing parameters of a TTML document (`ttp:` attributes on `tt`) and its time expressions: clock time
/// (`01:02:03.5`, `01:02:03:12`, `01:02:03:12.1`) and offset time (`1.5s`, `90ms`, `12f`, `3000t`, `2h`, `1m`),
/// as TTML2 §10.3.1 defines them for the media time base.
public struct TTMLTiming: Sendable, Equatable {
    /// `ttp:frameRate` (frames a second before the multiplier; TTML's default is 30).
    public var frameRate: Double = 30
    /// `ttp:frameRateMultiplier` as a fraction (`1000 1001` for 29.97).
    public var frameRateMultiplier: Double = 1
    /// `ttp:subFrameRate`.
    public var subFrameRate: Double = 1
    /// `ttp:tickRate`; nil when not given (then the effective frame rate × sub-frame rate when a frame rate is given,
    /// else 1).
    public var tickRate: Double?
    /// Whether `ttp:frameRate` was given (IMSC requires it when frames are used).
    public var hasFrameRate = false

    public init() {}

    /// Frames a second after the multiplier.
    public var effectiveFrameRate: Double { frameRate * frameRateMultiplier }

    /// Ticks a second.
    public var effectiveTickRate: Double { tickRate ?? (hasFrameRate ? effectiveFrameRate * subFrameRate : 1) }

    /// What a time expression uses, for the profile's checks.
    public struct Uses: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let frames = Uses(rawValue: 1)
        public static let ticks = Uses(rawValue: 2)
        public static let wallClock = Uses(rawValue: 4)
    }

    /// The milliseconds a time expression stands for (frames and ticks rounded to the nearest), or nil when it is not
    /// one (or is a wall-clock time, which the media time base cannot place). Hours, minutes, seconds and decimal
    /// fractions are counted exactly in integers (saturating at about 290 million years); `uses` collects the terms
    /// the expression needed.
    public func milliseconds(of expression: some StringProtocol, uses: inout Uses) -> Int64? {
        var bytes = Array(expression.utf8.drop { Self.isSpace($0) })
        while let last = bytes.last, Self.isSpace(last) { bytes.removeLast() }
        guard let first = bytes.first else { return nil }
        if first == UInt8(ascii: "w") {
            uses.insert(.wallClock)
            return nil
        }
        if bytes.contains(UInt8(ascii: ":")) { return clockTime(bytes, uses: &uses) }
        return offsetTime(bytes, uses: &uses)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// The largest time: counts and sums saturate here.
    static let ceiling: Int64 = .max

    /// `a + b`, saturating.
    static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (result, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? ceiling : .min) : result
    }

    /// A run of digits at `index` as an integer (saturating) and its length.
    private static func digits(_ bytes: [UInt8], _ index: inout Int) -> (value: Int64, count: Int)? {
        let start = index
        var value: Int64 = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            value = sum(scaled(value, by: 10), Int64(bytes[index] - 0x30))
            index += 1
        }
        return index > start ? (value, index - start) : nil
    }

    /// Milliseconds of a decimal fraction's digits (`5` → 500, `0625` → 63), rounded.
    private static func fractionMilliseconds(_ bytes: ArraySlice<UInt8>) -> Int64 {
        var value = 0.0
        var scale = 100.0
        for byte in bytes {
            value += Double(byte - 0x30) * scale
            scale /= 10
        }
        return Int64(saturating: value.rounded())
    }

    private static func scaled(_ value: Int64, by factor: Int64) -> Int64 {
        let (result, overflow) = value.multipliedReportingOverflow(by: factor)
        return overflow ? ceiling : result
    }

    /// `hours ":" minutes ":" seconds (fraction | ":" frames ("." sub-frames)?)?`: hours two or more digits,
    /// minutes and seconds two.
    private func clockTime(_ bytes: [UInt8], uses: inout Uses) -> Int64? {
        var index = 0
        func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let hours = Self.digits(bytes, &index), hours.count >= 2, expect(UInt8(ascii: ":")),
            let minutes = Self.digits(bytes, &index), minutes.count == 2, minutes.value < 60, expect(UInt8(ascii: ":")),
            let seconds = Self.digits(bytes, &index), seconds.count == 2, seconds.value <= 60
        else { return nil }
        let whole = Self.sum(Self.scaled(hours.value, by: 3_600_000), minutes.value * 60_000 + seconds.value * 1000)
        if index == bytes.count { return whole }
        if expect(UInt8(ascii: ".")) {
            let start = index
            guard Self.digits(bytes, &index) != nil, index == bytes.count else { return nil }
            return Self.sum(whole, Self.fractionMilliseconds(bytes[start...]))
        }
        guard expect(UInt8(ascii: ":")), let frames = Self.digits(bytes, &index), frames.count >= 2 else { return nil }
        uses.insert(.frames)
        var frameCount = Double(frames.value)
        if expect(UInt8(ascii: ".")) {
            guard let subFrames = Self.digits(bytes, &index) else { return nil }
            frameCount += Double(subFrames.value) / subFrameRate
        }
        guard index == bytes.count, Double(frames.value) < effectiveFrameRate.rounded(.up) else { return nil }
        return Self.sum(whole, Self.milliseconds(frameCount * 1000 / effectiveFrameRate))
    }

    /// `time-count fraction? metric`, metric one of h, m, s, ms, f, t.
    private func offsetTime(_ bytes: [UInt8], uses: inout Uses) -> Int64? {
        var index = 0
        guard let count = Self.digits(bytes, &index) else { return nil }
        var fraction: ArraySlice<UInt8> = []
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            guard Self.digits(bytes, &index) != nil else { return nil }
            fraction = bytes[start..<index]
        }
        // The count with its fraction in thousandths (exact for up to three decimals), for the metrics that scale it.
        // Read as `0.DIGITS`: however many digits, a value from 0 to 1 (not DIGITS ÷ 10ⁿ, which overflows to NaN).
        let fractionValue = fraction.isEmpty ? 0 : Double("0." + String(decoding: fraction, as: UTF8.self)) ?? 0
        func exact(_ unit: Int64) -> Int64 {
            Self.sum(Self.scaled(count.value, by: unit), Int64(saturating: (fractionValue * Double(unit)).rounded()))
        }
        switch String(decoding: bytes[index...], as: UTF8.self) {
        case "h": return exact(3_600_000)
        case "m": return exact(60_000)
        case "s": return exact(1000)
        case "ms": return Self.sum(count.value, Int64(saturating: fractionValue.rounded()))
        case "f":
            uses.insert(.frames)
            return Self.milliseconds((Double(count.value) + fractionValue) * 1000 / effectiveFrameRate)
        case "t":
            uses.insert(.ticks)
            return Self.milliseconds((Double(count.value) + fractionValue) * 1000 / effectiveTickRate)
        default: return nil
        }
    }

    /// Milliseconds from a computed count, rounded and kept below the ceiling.
    private static func milliseconds(_ value: Double) -> Int64 {
        value.isFinite && value < 9.2e18 ? Int64(value.rounded()) : ceiling
    }

    /// Reads `ttp:frameRate`, `ttp:frameRateMultiplier`, `ttp:subFrameRate` and `ttp:tickRate` values; returns the
    /// names of those that are malformed (left at their defaults).
    mutating func apply(frameRate: String?, multiplier: String?, subFrameRate: String?, tickRate: String?) -> [String] {
        var bad: [String] = []
        if let frameRate {
            if let value = Int(frameRate.trimmingSpaces()), value > 0 {
                self.frameRate = Double(value)
                hasFrameRate = true
            } else {
                bad.append("ttp:frameRate")
            }
        }
        if let multiplier {
            let parts = multiplier.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if parts.count == 2, let numerator = Int(parts[0]), let denominator = Int(parts[1]), numerator > 0, denominator > 0 {
                frameRateMultiplier = Double(numerator) / Double(denominator)
            } else {
                bad.append("ttp:frameRateMultiplier")
            }
        }
        if let subFrameRate {
            if let value = Int(subFrameRate.trimmingSpaces()), value > 0 { self.subFrameRate = Double(value) } else { bad.append("ttp:subFrameRate") }
        }
        if let tickRate {
            if let value = Int(tickRate.trimmingSpaces()), value > 0 { self.tickRate = Double(value) } else { bad.append("ttp:tickRate") }
        }
        return bad
    }
}
