/// One of N parts of a library, for checking it on several machines: a file belongs to the part its path
/// hashes to, so the parts are disjoint, together complete, and the same on every machine and every run.
public struct LibraryShard: Sendable, Equatable {
    /// 1-based.
    public var index: Int
    public var count: Int

    /// Shard `index` (1-based) of `count`; nil unless 1 ≤ index ≤ count.
    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Whether the file at `path` (as given) belongs to this shard.
    public func contains(_ path: String) -> Bool {
        Int(FNV1a.hash(path.utf8) % UInt64(count)) == index - 1
    }
}

/// The 64-bit FNV-1a hash: fast, stable across machines and runs (not for security).
enum FNV1a {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    /// `bytes` folded into `seed` (the offset basis to start a new hash).
    static func hash(_ bytes: some Sequence<UInt8>, seed: UInt64 = offsetBasis) -> UInt64 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
