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
        // Refused before anything is opened: a file in a format MediaLint does not write is never replaced by nothing.
        guard format.isWritable else {
            throw CLIError(
                "\(path): \(format.displayName) is read, not written: nothing was written (write the captions in another format: \((path as NSString).deletingPathExtension).srt, say)"
            )
        }
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
