import ArgumentParser
import Foundation

/// `--in-place [--backup SUFFIX]`: rewrite the caption file itself, atomically, optionally keeping the original.
struct InPlaceOptions: ParsableArguments {
    @Flag(help: "Rewrite the caption file itself (atomically: a reader sees the old file or the new one, never a mix).")
    var inPlace = false

    @Option(help: ArgumentHelp("With --in-place: keep the original as FILE followed by SUFFIX (e.g. .orig); never over an existing file.", valueName: "suffix"))
    var backup: String?

    func validate() throws {
        if let backup {
            guard inPlace else { throw ValidationError("--backup goes with --in-place.") }
            guard !backup.isEmpty, !backup.contains("/") else { throw ValidationError("--backup takes a suffix such as .orig (no '/').") }
        }
    }

    /// Keeps the file at `path` as `path` + the backup suffix, when one is asked for: a second name for the same file
    /// (so the original bytes stay as they were when the file is replaced), or a copy where the file system has no
    /// such links. Refused when that name exists. Returns the backup's path.
    func keepBackup(of path: String) throws -> String? {
        guard let backup else { return nil }
        let name = path + backup
        if linkat(AT_FDCWD, path, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0 { return name }
        let code = errno
        if code == EEXIST { throw CLIError("\(name) exists: remove it or choose another --backup suffix") }
        guard [EPERM, EXDEV, EMLINK, ENOTSUP].contains(code) else {
            throw CLIError("cannot keep \(path) as \(name): \(String(cString: strerror(code)))")
        }
        do { try FileManager.default.copyItem(atPath: path, toPath: name) } catch {
            throw CLIError("cannot keep \(path) as \(name): \(error.localizedDescription)")
        }
        return name
    }
}
