import ArgumentParser

/// Numbers from options and settings files, checked against the range where they make sense before any work:
/// an extreme value (`--by=1e308`, `max-flashes: inf`) is a usage error, never a trap in arithmetic later.
enum NumberRange {
    /// Throws unless `value` (when given) is finite and in `range`; `above` makes the lower end exclusive.
    static func check(_ value: Double?, _ name: String, _ range: ClosedRange<Double>, above: Bool = false) throws {
        guard let value else { return }
        let low = above ? value > range.lowerBound : value >= range.lowerBound
        guard value.isFinite, low, value <= range.upperBound else {
            throw ValidationError(
                "\(name) must be a number \(above ? "above" : "from") \(text(range.lowerBound)) \(above ? "and at most" : "to") \(text(range.upperBound)) (got \(text(value)))."
            )
        }
    }

    static func check(_ value: Int?, _ name: String, _ range: ClosedRange<Int>) throws {
        guard let value else { return }
        guard range.contains(value) else {
            throw ValidationError("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound) (got \(value)).")
        }
    }

    private static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
