import ArgumentParser
import Captions
import Foundation

/// Writing caption output: a chunk at a time, atomically to a file or to standard output; never over the
/// input by accident.
enum CaptionOutput {
    /// Writes `document` in `format` to `path` (`-`: standard output); returns the writer's diagnostics.
    static func write(
        _ document: CaptionDocument, as format: CaptionFormat, to path: String, input: String,
        inPlace: Bool = false
    ) throws -> [CaptionDiagnostic] {
        var diagnostics: [CaptionDiagnostic] = []
        try OutputStream.write(to: path, refusing: inPlace ? [] : [input]) { sink in
            diagnostics = CaptionFile.write(document, as: format) { sink.take(&$0) }
        }
        return diagnostics
    }

}
