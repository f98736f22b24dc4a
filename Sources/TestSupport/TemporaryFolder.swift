import Foundation

/// A fresh folder under the system's temporary folder for one test's files, named `medialint-PREFIX-UUID`; the caller
/// removes it.
package enum TemporaryFolder {
    package static func make(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
