import Foundation

/// One `exclude:` entry of a `.medialint.yml`, relative to the folder holding it. A name or glob without a slash
/// (`drafts`, `*.bak.srt`) leaves out any file or folder of that name below the folder; one with a slash
/// (`archive/2019`, `raw/**/*.wav`) is a path from the folder, `**` standing for any number of folders. A folder
/// left out takes everything under it.
struct ExcludePattern: Equatable {
    let pattern: String
    /// The folder the pattern is relative to, absolute.
    let folder: String
    private let segments: [String]
    private let isAnchored: Bool

    init(_ pattern: String, folder: String) {
        self.pattern = pattern
        self.folder = ConfigDiscovery.absolute(folder)
        var trimmed = pattern
        while trimmed.hasPrefix("./") { trimmed.removeFirst(2) }
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        isAnchored = trimmed.contains("/")
        segments = trimmed.split(separator: "/").map(String.init)
    }

    /// True when the file or folder at `path` is left out: it, or a folder above it (up to `folder`), matches.
    func matches(_ path: String) -> Bool {
        guard !segments.isEmpty else { return false }
        let absolute = ConfigDiscovery.absolute(path)
        let base = folder == "/" ? "/" : folder + "/"
        guard absolute.hasPrefix(base) else { return false }
        let names = absolute.dropFirst(base.count).split(separator: "/").map(String.init)
        if !isAnchored { return names.contains { Self.glob(segments[0], $0) } }
        return Self.prefixMatches(segments[...], names[...])
    }

    /// True when the pattern's segments match the first names of the path (the rest lies below a matched folder).
    private static func prefixMatches(_ pattern: ArraySlice<String>, _ names: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return true }
        if first == "**" {
            return (names.startIndex...names.endIndex).contains { prefixMatches(pattern.dropFirst(), names[$0...]) }
        }
        guard let name = names.first, glob(first, name) else { return false }
        return prefixMatches(pattern.dropFirst(), names.dropFirst())
    }

    /// Shell-style matching of one name: `*`, `?`, `[abc]`.
    private static func glob(_ pattern: String, _ name: String) -> Bool { fnmatch(pattern, name, 0) == 0 }
}
