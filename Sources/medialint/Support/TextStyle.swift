import Foundation

/// ANSI styling that does nothing when disabled.
struct TextStyle {
    let enabled: Bool

    static let plain = TextStyle(enabled: false)

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func cyan(_ text: String) -> String { wrap(text, "36") }

    /// What `cyan` writes before and after its text, for text written in pieces.
    var cyanCodes: (start: String, end: String) { enabled ? ("\u{1B}[36m", "\u{1B}[0m") : ("", "") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
