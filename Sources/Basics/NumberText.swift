import Foundation

/// How results write numbers, in one place: measures to the millisecond in JSON, and numbers as people read them in
/// messages and text reports.
public enum NumberText {
    /// To the millisecond (seconds, and the other measures results' JSON gives).
    public static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    /// To `places` decimals (0–9): a tenth for speech seconds, a hundredth for shares, a millionth for drift.
    public static func rounded(_ value: Double, places: Int) -> Double {
        let scale = powersOfTen[max(0, min(places, powersOfTen.count - 1))]
        return (value * scale).rounded() / scale
    }

    private static let powersOfTen: [Double] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]

    /// `3`, or with one decimal, `2.5`: counts and rates in messages.
    public static func short(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return String(value) }
        return value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// `12.345 s` (or `12.345` without the unit): times in text.
    public static func seconds(_ value: Double, unit: Bool = true) -> String {
        let milliseconds = Int64(saturating: (value * 1000).rounded())
        let fraction = String(abs(milliseconds) % 1000)
        return "\(milliseconds < 0 ? "-" : "")\(abs(milliseconds) / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
            + (unit ? " s" : "")
    }

    /// The width of the time bins of a series drawn as a chart: at most 600 bins over `duration`, at least 0.5 s, a
    /// whole number of tenths.
    public static func chartBin(duration: Double) -> Double { max(0.5, (duration / 600 * 10).rounded(.up) / 10) }
}
