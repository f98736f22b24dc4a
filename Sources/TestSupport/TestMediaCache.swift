import Basics
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Generated test media, made once per machine and kept by recipe: each file or folder is named by a hash of what
/// makes it (the command line, the inputs' bytes, the tools' versions), in one folder every test process shares.
/// A file is made under a temporary name and renamed into place, so a process never sees half of one; a lock file
/// per recipe keeps two processes (or two tests) from making the same one at once. A new recipe or tool version is a
/// new name; `make clean-test-media` empties the folder.
///
/// The folder: `$MEDIALINT_TEST_MEDIA`, else `$XDG_CACHE_HOME/medialint/test-media`, else
/// `~/.cache/medialint/test-media`, else (no writable home) `.build/test-media` in the package.
package enum TestMediaCache {
    package static let directory: URL = {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [URL] = []
        if let chosen = environment["MEDIALINT_TEST_MEDIA"], !chosen.isEmpty { candidates.append(URL(fileURLWithPath: chosen)) }
        if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty {
            candidates.append(URL(fileURLWithPath: cache).appendingPathComponent("medialint/test-media"))
        }
        if let home = environment["HOME"], !home.isEmpty {
            candidates.append(URL(fileURLWithPath: home).appendingPathComponent(".cache/medialint/test-media"))
        }
        candidates.append(packageRoot.appendingPathComponent(".build/test-media"))
        for candidate in candidates where (try? FileManager.default.createDirectory(at: candidate, withIntermediateDirectories: true)) != nil {
            if FileManager.default.isWritableFile(atPath: candidate.path) { return candidate }
        }
        return candidates.last!
    }()

    /// The package's root folder (where `Package.swift` is).
    package static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Stands for the output file in `ffmpeg(_:_:)`'s arguments.
    package static let output = "{output}"

    /// The file `name` (its extension kept) made by `make` at the path it is given, once per `recipe` and the versions of
    /// `tools`; its path in the cache.
    package static func file(_ name: String, recipe: String, tools: [String], make: (_ path: String) throws -> Void) throws -> String {
        let final = directory.appendingPathComponent(cachedName(name, recipe: recipe, tools: tools))
        return try made(final) { partial in try make(partial.path) }.path
    }

    /// The folder `name` made by `make` in the (empty, existing) folder it is given, once per `recipe` and the versions
    /// of `tools`; its path in the cache. Nothing in it may be changed: a test that edits copies it first (`copy`).
    package static func folder(_ name: String, recipe: String, tools: [String], make: (_ folder: URL) throws -> Void) throws -> URL {
        let final = directory.appendingPathComponent(cachedName(name, recipe: recipe, tools: tools))
        return try made(final) { partial in
            try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: false)
            try make(partial)
        }
    }

    /// `ffmpeg ARGUMENTS` writing `name` where `output` stands in the arguments; an argument naming a file that exists
    /// (an input) counts in the recipe by its bytes, not its path.
    package static func ffmpeg(_ name: String, _ arguments: [String]) throws -> String {
        precondition(arguments.contains(output), "ffmpeg's arguments say where the output goes with TestMediaCache.output")
        return try file(name, recipe: try recipe(arguments), tools: ["ffmpeg"]) { path in
            try ExternalTool.run("ffmpeg", ["-nostdin", "-v", "error", "-y"] + arguments.map { $0 == output ? path : $0 })
        }
    }

    /// Copies a cached file or folder to `destination` (which must not exist), for a test that changes it.
    package static func copy(_ cached: String, to destination: URL) throws {
        try FileManager.default.copyItem(at: URL(fileURLWithPath: cached), to: destination)
    }

    /// Copies what a cached folder holds into `destination` (made if missing), for a test that changes it.
    package static func copyContents(of cached: URL, into destination: URL) throws {
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: cached.path) {
            try FileManager.default.copyItem(at: cached.appendingPathComponent(name), to: destination.appendingPathComponent(name))
        }
    }

    /// The arguments as a recipe: each one that names an existing regular file replaced by a hash of its bytes.
    package static func recipe(_ arguments: [String]) throws -> String {
        try arguments.map { argument in
            var isFolder: ObjCBool = false
            guard argument != output, FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder), !isFolder.boolValue else {
                return argument
            }
            return "file:" + (try fingerprint(ofFile: argument))
        }.joined(separator: "\u{1F}")
    }

    /// A hash of a file's bytes.
    package static func fingerprint(ofFile path: String) throws -> String {
        String(FNV1a.hash(try Data(contentsOf: URL(fileURLWithPath: path))), radix: 16)
    }

    /// `name` with the recipe's hash before its extension: `speech-3f2a….m4a`.
    static func cachedName(_ name: String, recipe: String, tools: [String]) -> String {
        let key = ([recipe, ExternalTool.reproducibility] + tools.sorted().map { "\($0): \(ExternalTool.version($0))" }).joined(separator: "\n")
        let hash = FNV1a.hex(key)
        let url = URL(fileURLWithPath: name)
        let stem = url.deletingPathExtension().lastPathComponent
        return url.pathExtension.isEmpty ? "\(stem)-\(hash)" : "\(stem)-\(hash).\(url.pathExtension)"
    }

    /// `final` if it is there; else made by `make` at a temporary path beside it and renamed into place, under a lock.
    private static func made(_ final: URL, make: (URL) throws -> Void) throws -> URL {
        if FileManager.default.fileExists(atPath: final.path) { return final }
        let lock = open(final.path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw ExternalTool.Failure(description: "cannot create \(final.path).lock: errno \(errno)") }
        defer { close(lock) }
        flock(lock, LOCK_EX)
        defer { flock(lock, LOCK_UN) }
        if FileManager.default.fileExists(atPath: final.path) { return final }
        // The temporary name keeps the extension: ffmpeg chooses its muxer by it.
        let partial = final.deletingLastPathComponent().appendingPathComponent(".part-\(UUID().uuidString)-\(final.lastPathComponent)")
        do {
            try make(partial)
            guard rename(partial.path, final.path) == 0 else { throw ExternalTool.Failure(description: "cannot rename \(partial.path): errno \(errno)") }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        return final
    }
}
