/// ANSI styling for text output, that does nothing when disabled (not a terminal, `NO_COLOR`): the one styler of
/// the text report and the command line.
public struct TextStyle: Sendable {
    public let enabled: Bool

    public init(enabled: Bool) { self.enabled = enabled }

    public static let plain = TextStyle(enabled: false)

    public func bold(_ text: String) -> String { wrap(text, "1") }
    public func dim(_ text: String) -> String { wrap(text, "2") }
    public func red(_ text: String) -> String { wrap(text, "31") }
    public func green(_ text: String) -> String { wrap(text, "32") }
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    public func cyan(_ text: String) -> String { wrap(text, "36") }

    /// What `cyan` writes before and after its text, for text written in pieces.
    public var cyanCodes: (start: String, end: String) { enabled ? ("\u{1B}[36m", "\u{1B}[0m") : ("", "") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
