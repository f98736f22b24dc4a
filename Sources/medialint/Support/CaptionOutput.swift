import Captions
import Foundation

/// Writing caption output: a chunk at a time, atomically to a file or to standard output; never over the
/// input by accident.
enum CaptionOutput {
    /// Writes `document` in `format` to `path` (`-`: standard output); returns the writer's diagnostics. Onto `input`
    /// only with `inPlace` (which keeps its backup first, when asked for, and removes it again if the write fails).
    static func write(
        _ document: CaptionDocument, as format: CaptionFormat, to path: String, input: String,
        inPlace: InPlaceOptions? = nil
    ) throws -> [CaptionDiagnostic] {
        var diagnostics: [CaptionDiagnostic] = []
        if inPlace == nil { try OutputStream.refuseInputs(path, [input]) }
        let backup = try inPlace?.keepBackup(of: path)
        do {
            try OutputStream.write(to: path) { sink in
                diagnostics = CaptionFile.write(document, as: format) { sink.take(&$0) }
            }
        } catch {
            if let backup { unlink(backup) }
            throw error
        }
        return diagnostics
    }

}
