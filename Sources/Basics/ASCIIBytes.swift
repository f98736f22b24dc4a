/// ASCII classes of UTF-8 bytes, for readers that work on bytes rather than Strings.
extension UInt8 {
    /// ASCII whitespace as WebVTT and HTML define it: tab, LF, FF, CR, space.
    @inlinable package var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0C || self == 0x0D }
    @inlinable package var isASCIIDigit: Bool { self &- 0x30 < 10 }
    @inlinable package var isASCIIAlphanumeric: Bool { isASCIIDigit || (self | 0x20) &- 0x61 < 26 }
}
