#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a path really is: links resolved, so that "inside the root" means what the kernel will open, not what
/// the name says (`site/link.mp4 → /etc/passwd` is outside `site`).
public enum PathContainment {
    /// The absolute path with every link resolved; nil when it does not exist (or a link in it dangles).
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// True when `path` is `root` or below it, by name: both absolute and standardized. For where a path leads, pass
    /// real paths (`realPath`).
    public static func isWithin(_ path: String, root: String) -> Bool {
        path == root || root == "/" || path.hasPrefix(root + "/")
    }
}
