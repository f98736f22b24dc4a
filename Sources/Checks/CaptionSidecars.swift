import Captions
import Foundation

/// Caption files that belong to a media file by name: next to it, named after it, with nothing or only language and
/// role tags between the name and the extension — `talk.vtt`, `talk.en.srt`, `talk.en-US.vtt`, `talk.pt_BR.srt`,
/// `talk.forced.en.srt`, `talk.eng.sdh.srt`. Any other infix makes another file: `talk.fixed.srt`, `talk.bak.srt`,
/// `talk.v2.srt` are not captions of `talk.mp4` (docs/cli.md, "Caption sources").
public enum CaptionSidecars {
    /// The sidecar caption files of the media at `path`, sorted by name.
    public static func find(for path: String) -> [String] {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return find(for: path, among: names)
    }

    /// Folder listings kept for many lookups in the same folders (a library run's plan): each folder is listed once.
    public final class FolderCache {
        private var names: [String: [String]] = [:]

        public init() {}

        /// `CaptionSidecars.find(for:)`, the folder listed once.
        public func find(for path: String) -> [String] {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            if names[directory] == nil {
                names[directory] = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            }
            return CaptionSidecars.find(for: path, among: names[directory] ?? [])
        }
    }

    /// Files named as the sidecars of the media at `path` are, in a caption format MediaLint does not read
    /// (`CaptionFormat.unreadExtensions`: `film.stl`, `film.en.sub`), sorted by name.
    public static func findUnread(for path: String) -> [String] {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return find(for: path, among: names) { CaptionFormat.unreadExtensions.contains($0.lowercased()) }
    }

    /// The sidecars of the media at `path` among `names`, the entries of its folder (`accepts`: whether an extension
    /// names a caption file; by default, one MediaLint reads).
    static func find(
        for path: String, among names: [String], accepts: (String) -> Bool = { CaptionFormat(pathExtension: $0) != nil }
    ) -> [String] {
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return names.filter { name in
            // The name first: most of a large folder is other files.
            guard name.hasPrefix(stem), accepts((name as NSString).pathExtension) else { return false }
            let base = (name as NSString).deletingPathExtension
            return base == stem || (base.hasPrefix(stem + ".") && SidecarTags(base.dropFirst(stem.count + 1)) != nil)
        }
        .sorted()
        .map { name in
            // Keep the caller's spelling of the directory (relative stays relative).
            let folder = (path as NSString).deletingLastPathComponent
            return folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
        }
        .filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }
}

/// The tags of a sidecar caption file's name between the media's name and the extension, dot-separated, in any
/// order: at most one language — a BCP 47 tag (`en`, `en-US`, `pt-BR`, `zh-Hant`, `es-419`; `_` may stand for `-`)
/// whose language is an ISO 639-1 code, or an ISO 639-2 code of such a language (`eng`, `fre`, `deu`) — and roles:
/// `forced` (or `foreign`), `sdh`, `cc`, `hi` (for the deaf and hard of hearing; alone, `hi` is Hindi), `default`. `bak` is read as a backup,
/// not as Bashkir (`ba`).
public struct SidecarTags: Equatable, Sendable {
    public var language: String?
    public var roles: [String]

    public static let roleNames: Set<String> = ["forced", "foreign", "sdh", "cc", "hi", "default"]
    static let twoLetter = Set(LanguageCodes.twoLetter.split(whereSeparator: \.isWhitespace).map(String.init))
    static let threeLetter = Set(LanguageCodes.threeLetter.split(whereSeparator: \.isWhitespace).map(String.init)).subtracting(["bak"])

    /// The tags of `infix` (`en.forced`), or nil when any part is neither a language nor a role.
    public init?<S: StringProtocol>(_ infix: S) {
        language = nil
        roles = []
        for part in infix.split(separator: ".", omittingEmptySubsequences: false).map({ String($0).lowercased() }) {
            if Self.roleNames.contains(part) {
                roles.append(part)
            } else if language == nil, Self.isLanguageTag(part) {
                language = part.replacingOccurrences(of: "_", with: "-")
            } else {
                return nil
            }
        }
        // `hi` alone is Hindi; beside a language it is the role.
        if language == nil, let index = roles.firstIndex(of: "hi") {
            language = roles.remove(at: index)
        }
    }

    public init(language: String?, roles: [String]) {
        self.language = language
        self.roles = roles
    }

    /// A BCP 47 tag of the form language[-script][-region][-variant…] (lowercase), its language from ISO 639.
    static func isLanguageTag(_ tag: String) -> Bool {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false).flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        guard let language = subtags.first, twoLetter.contains(String(language)) || threeLetter.contains(String(language)) else { return false }
        var rest = subtags.dropFirst()
        let letters = { (text: Substring) in text.allSatisfy { $0.isASCII && $0.isLetter } }
        let digits = { (text: Substring) in text.allSatisfy { $0.isASCII && $0.isNumber } }
        if let script = rest.first, script.count == 4, letters(script) { rest = rest.dropFirst() }
        if let region = rest.first, (region.count == 2 && letters(region)) || (region.count == 3 && digits(region)) { rest = rest.dropFirst() }
        // Variants: 5–8 letters or digits, or a digit and three more.
        return rest.allSatisfy { variant in
            variant.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
                && ((5...8).contains(variant.count) || (variant.count == 4 && variant.first!.isNumber))
        }
    }
}
