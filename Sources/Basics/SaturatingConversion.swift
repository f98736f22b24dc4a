/// Whole numbers from measures that untrusted input can make anything: NaN is 0, and what does not fit is the type's
/// largest or smallest value, never a trap.
extension Int64 {
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9_223_372_036_854_775_807 {
            self = .max
        } else if value <= -9_223_372_036_854_775_808 {
            self = .min
        } else {
            self = Int64(value)
        }
    }
}

extension Int {
    public init(saturating value: Double) { self = Int(Int64(saturating: value)) }
}
