import Foundation

/// Whole-file writes that never leave a partial file (see `StreamingFile`).
enum AtomicFile {
    static func write(_ data: Data, to path: String) throws {
        let file = try StreamingFile(path: path)
        file.write(bytes: data)
        try file.commit()
    }
}
