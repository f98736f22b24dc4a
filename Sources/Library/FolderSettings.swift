/// Settings that differ from folder to folder (a `.medialint.yml` nearer some files than the root): what each file is
/// checked with, and which files are left out. `LibraryRun.plan` asks once per file, before any is checked.
public protocol FolderSettings {
    /// `base` set up for `item` — its flash, sync and lint checks as the settings where the file lies make them —
    /// and text that changes whenever those settings do (part of the results store's stamp). Throws when the
    /// settings there cannot be read.
    func checker(for item: LibraryItem, base: LibraryChecker) throws -> (checker: LibraryChecker, settings: String)
    /// True when `path`, a file or folder met walking a folder given, is left out (with everything under it).
    func excludes(_ path: String) throws -> Bool
}
