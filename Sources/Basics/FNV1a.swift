/// The 64-bit FNV-1a hash: fast, stable across machines and runs (not for security).
public enum FNV1a {
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    /// `bytes` folded into `seed` (the offset basis to start a new hash).
    public static func hash(_ bytes: some Sequence<UInt8>, seed: UInt64 = offsetBasis) -> UInt64 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}

extension FNV1a {
    /// The hash of `text`'s UTF-8 bytes in hex: a short fingerprint, the same on every machine and run.
    public static func hex(_ text: String) -> String { String(hash(text.utf8), radix: 16) }
}
