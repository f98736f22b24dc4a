import Testing

@testable import Basics

/// Measures made from untrusted input become whole numbers without a trap: NaN is 0, what does not fit saturates.
@Suite struct SaturatingConversionTests {
    @Test func valuesThatDoNotFitSaturate() {
        #expect(Int64(saturating: 1.5) == 1 && Int64(saturating: -2.5) == -2)
        #expect(Int64(saturating: .nan) == 0)
        #expect(Int64(saturating: .infinity) == .max && Int64(saturating: -.infinity) == .min)
        #expect(Int64(saturating: 9.3e18) == .max && Int64(saturating: -9.3e18) == .min)
        #expect(Int64(saturating: 9_223_372_036_854_775_807.0) == .max)
        #expect(Int(saturating: 1e20) == Int(Int64.max) && Int(saturating: 42.9) == 42)
    }
}
