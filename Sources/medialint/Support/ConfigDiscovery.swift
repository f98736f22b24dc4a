import Foundation

/// Finds the settings for each file, as `.editorconfig` files are found: every `.medialint.yml` from the file's folder
/// up to the filesystem root, nearer ones overriding further ones setting by setting; a file with `root: true` stops
/// the search above it. `--config FILE` is that one file for every checked file. The `--set`s go on top. Each folder's
/// settings are read once per run.
final class ConfigDiscovery {
    let explicitPath: String?
    let assignments: [String]
    private let workingDirectory = ConfigDiscovery.absolute(FileManager.default.currentDirectoryPath)
    /// The settings found for each folder (absolute).
    private var cache: [String: ConfigFile] = [:]

    init(explicitPath: String?, assignments: [String]) {
        self.explicitPath = explicitPath
        self.assignments = assignments
    }

    /// The settings for the file or folder at `path`: those of the folder holding it (of the folder itself, for a
    /// folder given on the command line).
    func settings(for path: String) throws -> ConfigFile {
        var isDirectory: ObjCBool = false
        let isFolder = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        return try settings(inFolder: Self.absolute(isFolder ? path : (path as NSString).deletingLastPathComponent))
    }

    /// The settings that apply to the files in `folder` (absolute).
    func settings(inFolder folder: String) throws -> ConfigFile {
        let key = explicitPath == nil ? folder : ""
        if let known = cache[key] { return known }
        let layers = explicitPath.map { [$0] } ?? layers(for: folder)
        RunInputs.add(layers)  // read by this run: no output goes over them
        var file = try ConfigFile(layers: layers)
        for assignment in assignments { try file.set(assignment) }
        // Every section is read as `check` reads it, whichever command asked: a setting one command refuses, all do.
        try file.validate()
        cache[key] = file
        return file
    }

    /// The `.medialint.yml` files from the filesystem root down to `folder` (absolute).
    func layers(for folder: String) -> [String] {
        var found: [String] = []
        var current = folder
        while true {
            let candidate = current == "/" ? "/" + ConfigFile.defaultName : current + "/" + ConfigFile.defaultName
            if FileManager.default.fileExists(atPath: candidate) { found.append(display(candidate)) }
            guard current != "/" else { break }
            current = (current as NSString).deletingLastPathComponent
        }
        return found.reversed()
    }

    /// A path as messages show it: relative to the current directory when inside it.
    private func display(_ path: String) -> String {
        Self.isWithin(path, workingDirectory) ? String(path.dropFirst(workingDirectory == "/" ? 1 : workingDirectory.count + 1)) : path
    }

    /// `path` made absolute and tidied (`.`, `..`, doubled slashes), links left as they are.
    static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var names: [Substring] = []
        for name in full.split(separator: "/") {
            switch name {
            case "", ".": continue
            case "..": _ = names.popLast()
            default: names.append(name)
            }
        }
        return "/" + names.joined(separator: "/")
    }

    /// True when `path` is `folder` or below it (both absolute).
    static func isWithin(_ path: String, _ folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }
}
