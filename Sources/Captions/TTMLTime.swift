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

    /// The seconds a time expression stands for, or nil when it is not one (or is a wall-clock time, which the
    /// media time base cannot place). `uses` collects the terms it needed.
    public func seconds(of expression: some StringProtocol, uses: inout Uses) -> Double? {
        let text = expression.utf8.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        var bytes = Array(text)
        while let last = bytes.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D { bytes.removeLast() }
        guard let first = bytes.first else { return nil }
        if first == UInt8(ascii: "w") {
            uses.insert(.wallClock)
            return nil
        }
        if bytes.contains(UInt8(ascii: ":")) { return clockTime(bytes, uses: &uses) }
        return offsetTime(bytes, uses: &uses)
    }

    /// `hours ":" minutes ":" seconds (fraction | ":" frames ("." sub-frames)?)?`: hours two or more digits,
    /// minutes and seconds two.
    private func clockTime(_ bytes: [UInt8], uses: inout Uses) -> Double? {
        var index = 0
        func digits() -> (value: Double, count: Int)? {
            let start = index
            var value = 0.0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                value = value * 10 + Double(bytes[index] - 0x30)
                index += 1
            }
            return index > start ? (value, index - start) : nil
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let hours = digits(), hours.count >= 2, expect(UInt8(ascii: ":")),
            let minutes = digits(), minutes.count == 2, minutes.value < 60, expect(UInt8(ascii: ":")),
            let seconds = digits(), seconds.count == 2, seconds.value <= 60
        else { return nil }
        var total = hours.value * 3600 + minutes.value * 60 + seconds.value
        if index == bytes.count { return total }
        if expect(UInt8(ascii: ".")) {
            let start = index
            guard let fraction = digits(), index == bytes.count else { return nil }
            return total + fraction.value / pow10(index - start)
        }
        guard expect(UInt8(ascii: ":")), let frames = digits(), frames.count >= 2 else { return nil }
        uses.insert(.frames)
        var frameCount = frames.value
        if expect(UInt8(ascii: ".")) {
            guard let subFrames = digits() else { return nil }
            frameCount += subFrames.value / subFrameRate
        }
        guard index == bytes.count, frames.value < effectiveFrameRate.rounded(.up) else { return nil }
        total += frameCount / effectiveFrameRate
        return total
    }

    /// `time-count fraction? metric`, metric one of h, m, s, ms, f, t.
    private func offsetTime(_ bytes: [UInt8], uses: inout Uses) -> Double? {
        var index = 0
        var value = 0.0
        var sawDigit = false
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            value = value * 10 + Double(bytes[index] - 0x30)
            index += 1
            sawDigit = true
        }
        guard sawDigit else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            var sawFraction = false
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                value += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
                sawFraction = true
            }
            guard sawFraction else { return nil }
        }
        switch String(decoding: bytes[index...], as: UTF8.self) {
        case "h": return value * 3600
        case "m": return value * 60
        case "s": return value
        case "ms": return value / 1000
        case "f":
            uses.insert(.frames)
            return value / effectiveFrameRate
        case "t":
            uses.insert(.ticks)
            return value / effectiveTickRate
        default: return nil
        }
    }

    private func pow10(_ n: Int) -> Double {
        var result = 1.0
        for _ in 0..<n { result *= 10 }
        return result
    }

    /// Reads `ttp:frameRate`, `ttp:frameRateMultiplier`, `ttp:subFrameRate` and `ttp:tickRate` values; returns the
    /// names of those that are malformed (left at their defaults).
    mutating func apply(frameRate: String?, multiplier: String?, subFrameRate: String?, tickRate: String?) -> [String] {
        var bad: [String] = []
        if let frameRate {
            if let value = Int(frameRate.trimmed), value > 0 {
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
            if let value = Int(subFrameRate.trimmed), value > 0 { self.subFrameRate = Double(value) } else { bad.append("ttp:subFrameRate") }
        }
        if let tickRate {
            if let value = Int(tickRate.trimmed), value > 0 { self.tickRate = Double(value) } else { bad.append("ttp:tickRate") }
        }
        return bad
    }
}

extension String {
    /// The string without leading and trailing XML white space.
    var trimmed: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
