import Checks
import FileAccess
import Findings
import Foundation
import Streaming

/// A file of a media library and what kind of check it gets.
public struct LibraryItem: Sendable, Equatable {
    public typealias Kind = FileKind
    public var kind: Kind
    /// The path as found (under the path given).
    public var path: String
    /// The path given on the command line that this file was found under (the root for pages' media).
    public var root: String
}

/// A path met while walking a library that could not be checked: an error result.
public struct LibraryProblem: Sendable, Equatable {
    public var path: String
    public var message: String
    public var rule: Rule

    public init(path: String, message: String, rule: Rule = .mediaUnreadable) {
        self.path = path
        self.message = message
        self.rule = rule
    }

    /// The error result `check` gives for it.
    public func result(check: CheckKind) -> CheckResult { .unreadable(file: path, check: check, reason: message, rule: rule) }
}

/// Finds the files to check under the paths given: media by extension, caption files, HTML pages. Directories
/// are walked recursively; a directory reached twice (a symlink loop, or two links to one place) is walked once;
/// what cannot be read is reported, not fatal.
public enum LibraryScanner {
    public static let mediaExtensions: Set<String> = [
        "mp4", "m4v", "mov", "mkv", "webm", "avi", "mpg", "mpeg", "ts", "m2ts", "wmv",
        "flv", "ogv", "mp3", "m4a", "aac", "wav", "ogg", "oga", "opus", "flac",
    ]
    /// Every caption format read (`CaptionFormat(pathExtension:)`): each file is linted on its own, whether or not a
    /// video is beside it.
    public static let captionExtensions: Set<String> = ["vtt", "webvtt", "srt", "scc", "ttml", "dfxp", "smi", "sami", "ass", "ssa", "sbv", "stl"]
    public static let pageExtensions: Set<String> = ["html", "htm"]
    public static let packageExtensions: Set<String> = ["m3u8"]

    /// The kind of check a file name calls for, if any.
    public static func kind(of path: String) -> LibraryItem.Kind? {
        let ext = (path as NSString).pathExtension.lowercased()
        if mediaExtensions.contains(ext) { return .media }
        if captionExtensions.contains(ext) { return .captions }
        if pageExtensions.contains(ext) { return .page }
        if packageExtensions.contains(ext) { return .package }
        return nil
    }

    /// Whether a regular file found in a walk, of `kind` by its name, is taken: `.stl` is also stereolithography's (3D
    /// models), so an `.stl` file is taken only when it starts as EBU STL does.
    static func takes(_ path: String, kind: LibraryItem.Kind) -> Bool {
        kind != .captions || (path as NSString).pathExtension.lowercased() != "stl" || startsAsEBUSTL(path)
    }

    /// Whether the file starts with an EBU STL General Subtitle Information block: a code page number, then `STL`
    /// (`850STL25.01`).
    static func startsAsEBUSTL(_ path: String) -> Bool {
        guard let file = try? RegularFile(path: path) else { return false }
        let head = file.read(count: 6, at: 0)
        return head.count == 6 && head[0..<3].allSatisfy { (0x30...0x39).contains($0) } && head[3..<6].elementsEqual("STL".utf8)
    }

    /// The files under `paths` (a file given directly is taken whatever its name), in path order, and the
    /// problems met (path, message).
    /// `skip` leaves out a file or folder met in a walk (with what is under it); files given by name are taken.
    public static func scan(
        _ paths: [String], skip: (String) throws -> Bool = { _ in false }
    ) rethrows -> (items: [LibraryItem], problems: [LibraryProblem]) {
        var items: [LibraryItem] = []
        var problems: [LibraryProblem] = []
        var visited = Set<FileIdentity>()
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else {
                problems.append(LibraryProblem(path: path, message: String(cString: strerror(errno))))
                continue
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                try walk(path, root: path, realRoot: PathContainment.realPath(path) ?? path, skip, &items, &problems, &visited)
            } else {
                items.append(
                    LibraryItem(
                        kind: kind(of: path) ?? .media, path: path,
                        root: (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent))
            }
        }
        return (claimingPackageMembers(items), problems)
    }

    private static func walk(
        _ directory: String, root: String, realRoot: String, _ skip: (String) throws -> Bool, _ items: inout [LibraryItem],
        _ problems: inout [LibraryProblem], _ visited: inout Set<FileIdentity>
    ) rethrows {
        var info = stat()
        guard stat(directory, &info) == 0 else {
            problems.append(LibraryProblem(path: directory, message: String(cString: strerror(errno))))
            return
        }
        guard visited.insert(FileIdentity(info)).inserted else { return }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            problems.append(LibraryProblem(path: directory, message: "cannot be listed"))
            return
        }
        for name in names where !name.hasPrefix(".") {
            let path = (directory as NSString).appendingPathComponent(name)
            if try skip(path) { continue }
            var entry = stat()
            guard stat(path, &entry) == 0 else {
                problems.append(LibraryProblem(path: path, message: String(cString: strerror(errno))))  // e.g. a dangling symlink
                continue
            }
            // A link is followed only while it stays inside the root given: the library is what is under it.
            var link = stat()
            if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK, let real = PathContainment.realPath(path),
                !PathContainment.isWithin(real, root: realRoot)
            {
                if entry.st_mode & S_IFMT == S_IFDIR || kind(of: name) != nil {
                    problems.append(
                        LibraryProblem(
                            path: path, message: "a link that leads outside the checked root (to \(real)): not read",
                            rule: .mediaOutsideRoot))
                }
                continue
            }
            switch entry.st_mode & S_IFMT {
            case S_IFDIR:
                try walk(path, root: root, realRoot: realRoot, skip, &items, &problems, &visited)
            case S_IFREG:
                if let kind = kind(of: name), takes(path, kind: kind) { items.append(LibraryItem(kind: kind, path: path, root: root)) }
            default:
                break  // devices, pipes, sockets: never read
            }
        }
    }
}

extension LibraryScanner {
    /// The items without the files an HLS package among them is made of (its media playlists and segments, checked
    /// with the package, not one by one).
    static func claimingPackageMembers(_ items: [LibraryItem]) -> [LibraryItem] {
        var members = Set<String>()
        for item in items where item.kind == .package {
            // Only the playlists are needed here: no segment is probed.
            guard let package = try? HLSPackage.readPlaylists(item.path), case .multivariant = package.playlist else { continue }
            members.formUnion(package.memberFiles())
        }
        guard !members.isEmpty else { return items }
        return items.filter { item in
            guard let real = PathContainment.realPath(item.path) else { return true }
            return !members.contains(real)
        }
    }
}
