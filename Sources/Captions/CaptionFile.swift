import Foundation

/// Reading and writing caption files: format from the extension or the content, encoding detected.
public enum CaptionFile {
    /// The format of a file: from its extension, else from its content (`WEBVTT` signature, else SRT).
    public static func format(of path: String, bytes: [UInt8]) -> CaptionFormat {
        if let format = CaptionFormat(pathExtension: (path as NSString).pathExtension) { return format }
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3).prefix(6)) : Array(bytes.prefix(6))
        return start == Array("WEBVTT".utf8) ? .webvtt : .srt
    }

    /// Reads the caption file at `path` (mapped into memory and read in place, its pages given back as they
    /// are read: memory holds the cues, not the file).
    public static func read(_ path: String, format: CaptionFormat? = nil, encoding: String? = nil,
                            mode: WebVTTReader.Mode = .lenient) throws(CaptionError) -> CaptionDocument {
        let file = try MappedFile(path: path)
        defer { withExtendedLifetime(file) {} }  // the mapping must outlive every use of its buffer
        let buffer = file.buffer
        switch format ?? self.format(of: path, bytes: Array(buffer.prefix(9))) {
        case .webvtt: return try WebVTTReader(mode: mode).read(buffer: buffer, encoding: encoding, mapping: file)
        case .srt: return try SRTReader().read(buffer: buffer, encoding: encoding, mapping: file)
        }
    }

    /// Reads caption bytes in a known format.
    public static func read(_ bytes: [UInt8], format: CaptionFormat, encoding: String? = nil,
                            mode: WebVTTReader.Mode = .lenient) throws(CaptionError) -> CaptionDocument {
        switch format {
        case .webvtt: return try WebVTTReader(mode: mode).read(bytes, encoding: encoding)
        case .srt: return try SRTReader().read(bytes, encoding: encoding)
        }
    }

    /// The bytes of the file at `path`.
    public static func readBytes(_ path: String) throws(CaptionError) -> [UInt8] {
        let file = try MappedFile(path: path)
        return withExtendedLifetime(file) { Array(file.buffer) }
    }

    /// The document written in `format` (converted first when it is in the other one).
    public static func encode(_ document: CaptionDocument, as format: CaptionFormat) -> (bytes: [UInt8], diagnostics: [CaptionDiagnostic]) {
        let (converted, conversion) = CaptionConverter.convert(document, to: format)
        let written = format == .webvtt ? WebVTTWriter().write(converted) : SRTWriter().write(converted)
        return (written.bytes, conversion + written.diagnostics)
    }
}
