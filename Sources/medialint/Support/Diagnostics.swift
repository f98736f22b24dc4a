import Captions
import Checks
import Foundation
import Reports

enum Diagnostics {
    /// Prints diagnostics on standard error as `file:line:column: severity: message [rule]`.
    static func print(_ diagnostics: [CaptionDiagnostic], file: String) {
        guard !diagnostics.isEmpty else { return }
        let style = TextStyle(enabled: Console.colorAllowed(on: 2))
        var text = ""
        for diagnostic in diagnostics {
            let place = diagnostic.line > 0 ? "\(file):\(diagnostic.line):\(diagnostic.column): " : "\(file): "
            let severity =
                switch diagnostic.severity {
                case .error: style.red("error")
                case .warning: style.yellow("warning")
                case .info: style.dim("note")
                }
            text += "\(place)\(severity): \(diagnostic.message) [\(diagnostic.rule)]\n"
        }
        Console.writeError(text)
    }
}
