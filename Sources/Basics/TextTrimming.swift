extension StringProtocol {
    /// The text without leading and trailing ASCII white space (space, tab, LF, FF, CR): XML's white space, and
    /// what HTML strips from attribute values.
    public func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" || $0 == "\u{0C}" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
