import Basics

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
