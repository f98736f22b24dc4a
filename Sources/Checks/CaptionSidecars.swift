import Captions
import Foundation

/// Caption files that belong to a media file by name: next to it, named after it, with an optional language
/// or other tag between: `talk.vtt`, `talk.srt`, `talk.en.srt`, `talk.en-US.vtt`, `talk.forced.en.srt`.
public enum CaptionSidecars {
    /// The sidecar caption files of the media at `path`, sorted by name.
    public static func find(for path: String) -> [String] {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        let stem = url.deletingPathExtension().lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return names.filter { name in
            guard CaptionFormat(pathExtension: (name as NSString).pathExtension) != nil else { return false }
            let base = (name as NSString).deletingPathExtension
            return base == stem || base.hasPrefix(stem + ".")
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
