import ArgumentParser
import FileAccess
import Foundation
import MediaIO

/// `--allow-playlists`: read HLS playlists and ffconcat scripts as media, following only the local files they name
/// inside the folders given (for `check`) or the media file's own folder (the single-file commands).
struct PlaylistOptions: ParsableArguments {
    @Flag(help: "Read HLS playlists and ffconcat scripts, following only regular local files inside the folder checked (default: refused; DASH always is).")
    var allowPlaylists = false

    /// Puts the policy in force for `paths`: a folder is a root, a file's folder is.
    func apply(to paths: [String]) {
        guard allowPlaylists else { return }
        let roots = paths.compactMap { path -> String? in
            var isDirectory: ObjCBool = false
            let folder =
                FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
                ? path : ((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent)
            return PathContainment.realPath(folder)
        }
        PlaylistPolicy.current = PlaylistPolicy(roots: roots)
    }
}
