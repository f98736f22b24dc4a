import Basics
import Captions
import Foundation
import Library
import Reports

/// Where results are kept unless `--db` says otherwise, and what must match for them to be reused.
enum ResultStoreDefaults {
    static let path = ".medialint/results.sqlite"
    /// Results depend on the tool's version and its settings: stored results are reused only under the same ones
    /// (each file's settings are added to its stamp: LibraryRun.plan).
    static var setup: String { "\(ToolInfo.name) \(ToolInfo.version) check" }

    /// A short fingerprint of `text` (FNV-1a, 64 bits, in hex): equal settings give equal stamps, run after run.
    static func fingerprint(_ text: String) -> String { FNV1a.hex(text) }
}
