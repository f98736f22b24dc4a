/// Text inside XML and HTML (the reports, the transcript): the one escaper.
public enum XMLText {
    /// Text for XML attributes and content: markup characters escaped, characters XML 1.0 forbids dropped
    /// (other control characters, U+FFFE, U+FFFF).
    public static func escape(_ text: String) -> String {
        var out = ByteWriter(capacity: text.utf8.count + 16)
        out.append(xmlEscaped: text)
        return out.takeString()
    }
}
