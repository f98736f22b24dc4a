import Foundation

/// How the checks round and write numbers.
enum CheckNumbers {
    /// To the millisecond (seconds, and other measures in results' JSON).
    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    /// `3`, or with one decimal, `2.5`, for messages.
    static func text(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// The width of the time bins of a series drawn as a chart: at most 600 bins over `duration`, at least
    /// 0.5 s, a whole number of tenths.
    static func chartBin(duration: Double) -> Double { max(0.5, (duration / 600 * 10).rounded(.up) / 10) }
}
