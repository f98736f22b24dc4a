import Checks
import Foundation
import Library

extension ConfigFile {
    /// Reads every section as the checks would (`check`'s per-folder setup): a value out of range, an unknown profile
    /// or rule is an error here, for every command alike.
    func validate() throws {
        try FlashSettings.checkRanges(FlashSettings.configuration(section("flash"), profile: nil))
        _ = try FlashSettings.exactDecode(section("flash"))
        _ = try SyncSettings.check(section("sync"))
        _ = try AccuracySettings.check(section("accuracy"))
        _ = try LintSettings(section("lint"), profile: nil).linter()
        _ = try RuleSettings.policy(section("rules"))
    }
}

/// `check`'s settings, folder by folder: each file is checked with the `.medialint.yml` files from its folder up (or
/// `--config`), the `--set`s and the profile options on top — exactly what `flash`, `lint` and `sync` use for that
/// file alone — and `exclude:` globs leave files and folders out of the walk.
final class CheckSettingsByFolder: FolderSettings {
    let discovery: ConfigDiscovery
    let flashProfile: String?
    let lintProfile: String?
    /// `--accuracy`: every folder's media get the accuracy check, whatever their settings say.
    let accuracy: Bool
    /// The checker and its settings text for each distinct settings (by canonical text and files read).
    private var built: [String: (checker: LibraryChecker, settings: String)] = [:]

    init(discovery: ConfigDiscovery, flashProfile: String?, lintProfile: String?, accuracy: Bool = false) {
        self.discovery = discovery
        self.flashProfile = flashProfile
        self.lintProfile = lintProfile
        self.accuracy = accuracy
    }

    /// The settings of each folder met (by the name the walk gives it): a library's files share few folders.
    private var inFolder: [String: ConfigFile] = [:]

    func checker(for item: LibraryItem, base: LibraryChecker) throws -> (checker: LibraryChecker, settings: String) {
        try checker(config: settings(inFolderOf: item.path), base: base)
    }

    /// The settings for the files in `path`'s folder.
    private func settings(inFolderOf path: String) throws -> ConfigFile {
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? ""
        if let known = inFolder[folder] { return known }
        let settings = try discovery.settings(inFolder: ConfigDiscovery.absolute(folder.isEmpty ? "." : folder))
        inFolder[folder] = settings
        return settings
    }

    /// `base` with the checks `config` and the profile options set up.
    func checker(config: ConfigFile, base: LibraryChecker) throws -> (checker: LibraryChecker, settings: String) {
        let text = [
            config.canonicalText, flashProfile.map { "flash-profile=\($0)" }, lintProfile.map { "lint-profile=\($0)" }, accuracy ? "accuracy" : nil,
        ]
        .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        let key = text + "\u{0}" + config.paths.joined(separator: "\u{0}")
        if let known = built[key] { return known }
        var checker = base
        let flash = try FlashSettings.configuration(config.section("flash"), profile: flashProfile)
        try FlashSettings.checkRanges(flash)
        checker.file.flash = FlashCheck(
            configuration: flash, decodeThreads: base.file.flash.decodeThreads, exactDecode: try FlashSettings.exactDecode(config.section("flash")))
        checker.file.sync = try SyncSettings.check(config.section("sync"))
        checker.file.accuracy = try AccuracySettings.check(config.section("accuracy"), forced: accuracy)
        checker.file.lint = LintCheck(linter: try LintSettings(config.section("lint"), profile: lintProfile).linter())
        checker.rules = try RuleSettings.policy(config.section("rules"))
        let made = (checker, text.isEmpty ? "" : ResultStoreDefaults.fingerprint(text))
        built[key] = made
        return made
    }

    func excludes(_ path: String) throws -> Bool {
        try settings(inFolderOf: path).excludes(path)
    }
}
