import Foundation

/// Reading and writing caption files: format from the extension or the content, encoding detected.
public enum CaptionFile {
    /// The format of a file: from its extension, else from its content (`WEBVTT` or `Scenarist_SCC` signature, XML
    /// (`<?xml` or `<tt`) for TTML, `<SAMI` for SAMI, `[Script Info]` for ASS/SSA, an SBV timing line, else SRT).
    public static func format(of path: String, bytes: [UInt8]) -> CaptionFormat {
        if let format = CaptionFormat(pathExtension: (path as NSString).pathExtension) { return format }
        return format(ofContent: bytes)
    }

    /// The format the first bytes of a file (64 are enough) show; SRT when they show none.
    public static func format(ofContent bytes: [UInt8]) -> CaptionFormat {
        var head = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3).prefix(61)) : Array(bytes.prefix(64))
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) {
            // UTF-16 (SAMI files often are): its ASCII letters are every other byte.
            let littleEndian = head[0] == 0xFF
            head = stride(from: littleEndian ? 2 : 3, to: head.count, by: 2).map { head[$0] }
        }
        let start = head.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        func startsWith(_ text: String, caseInsensitive: Bool = false) -> Bool {
            let prefix = Array(text.utf8)
            guard start.count >= prefix.count else { return false }
            return zip(start, prefix).allSatisfy { caseInsensitive ? ($0 | 0x20) == ($1 | 0x20) : $0 == $1 }
        }
        if startsWith("WEBVTT") { return .webvtt }
        if startsWith("<?xml") || startsWith("<tt") { return .ttml }
        if startsWith("<sami", caseInsensitive: true) { return .sami }
        if startsWith("[script info]", caseInsensitive: true) { return .ass }
        if startsWith("Scenarist_SCC") { return .scc }
        // EBU STL: a code page number, then its Disk Format Code (`850STL25.01`).
        if bytes.count >= 11, bytes[0...2].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), bytes[3..<6].elementsEqual("STL".utf8) { return .stl }
        let firstLine = Array(start.prefix { $0 != 0x0A && $0 != 0x0D })
        let looksSBV = firstLine.withUnsafeBufferPointer { SBVReader.times($0, $0.trimmed(0..<$0.count)) != nil }
        return looksSBV ? .sbv : .srt
    }

    /// Reads the caption file at `path` (mapped into memory and read in place, its pages given back as they
    /// are read: memory holds the cues, not the file). `language` chooses among a SAMI file's languages.
    public static func read(
        _ path: String, format: CaptionFormat? = nil, encoding: String? = nil,
        mode: WebVTTReader.Mode = .lenient, language: String? = nil
    ) throws(CaptionError) -> CaptionDocument {
        let file = try MappedFile(path: path)
        defer { withExtendedLifetime(file) {} }  // the mapping must outlive every use of its buffer
        let buffer = file.buffer
        switch format ?? self.format(of: path, bytes: Array(buffer.prefix(64))) {
        case .webvtt: return try WebVTTReader(mode: mode).read(buffer: buffer, encoding: encoding, mapping: file)
        case .srt: return try SRTReader().read(buffer: buffer, encoding: encoding, mapping: file)
        case .scc: return try SCCReader().read(buffer: UnsafeRawBufferPointer(buffer)).document
        case .ttml: return try TTMLReader(mode: mode).read(buffer: UnsafeRawBufferPointer(buffer), mapping: file)
        case .sami: return try SAMIReader(language: language).read(buffer: buffer, encoding: encoding, mapping: file)
        case .ass: return try ASSReader().read(buffer: buffer, encoding: encoding, mapping: file)
        case .sbv: return try SBVReader().read(buffer: buffer, encoding: encoding, mapping: file)
        case .stl: return try STLReader().read(buffer: buffer)
        }
    }

    /// Reads caption bytes in a known format.
    public static func read(
        _ bytes: [UInt8], format: CaptionFormat, encoding: String? = nil,
        mode: WebVTTReader.Mode = .lenient
    ) throws(CaptionError) -> CaptionDocument {
        switch format {
        case .webvtt: return try WebVTTReader(mode: mode).read(bytes, encoding: encoding)
        case .srt: return try SRTReader().read(bytes, encoding: encoding)
        case .scc: return try SCCReader().read(bytes).document
        case .ttml: return try TTMLReader(mode: mode).read(bytes)
        case .sami: return try SAMIReader().read(bytes, encoding: encoding)
        case .ass: return try ASSReader().read(bytes, encoding: encoding)
        case .sbv: return try SBVReader().read(bytes, encoding: encoding)
        case .stl: return try STLReader().read(bytes)
        }
    }

    /// The bytes of the file at `path`.
    public static func readBytes(_ path: String) throws(CaptionError) -> [UInt8] {
        let file = try MappedFile(path: path)
        return withExtendedLifetime(file) { Array(file.buffer) }
    }

    /// The document written in `format` (converted first when it is in the other one).
    public static func encode(_ document: CaptionDocument, as format: CaptionFormat) -> (bytes: [UInt8], diagnostics: [CaptionDiagnostic]) {
        var out: [UInt8] = []
        out.reserveCapacity(document.estimatedWrittenSize)
        let diagnostics = write(document, as: format, into: &out, flushing: nil)
        return (out, diagnostics)
    }

    /// Writes the document in `format` a chunk at a time: `takeChunk` gets each chunk as it is made (about 256 KB)
    /// and may keep it (leaving an empty array in its place), so memory holds the document and a few chunks, never
    /// the whole output or a converted copy. Returns the diagnostics of the conversion (if any) and of the writer.
    public static func write(
        _ document: CaptionDocument, as format: CaptionFormat,
        handingChunksTo takeChunk: (inout [UInt8]) -> Void
    ) -> [CaptionDiagnostic] {
        var out: [UInt8] = []
        out.reserveCapacity(captionWriterChunkSize + 64 * 1024)
        return withoutActuallyEscaping(takeChunk) { takeChunk in
            write(document, as: format, into: &out) { chunk in
                takeChunk(&chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
    }

    private static func write(
        _ document: CaptionDocument, as format: CaptionFormat, into out: inout [UInt8],
        flushing flush: ((inout [UInt8]) -> Void)?
    ) -> [CaptionDiagnostic] {
        guard format.isWritable else {
            return [CaptionDiagnostic(line: 0, rule: "captions.convert", severity: .error, message: "\(format.displayName) is read, not written")]
        }
        if format != .webvtt && format != .srt {
            // Cues in WebVTT syntax (an SRT cue converted each time the writer takes it: no converted copy), then 608
            // pairs or TTML, handed on a chunk at a time.
            let sink: (inout [UInt8]) -> Void = { chunk in
                out += chunk
                chunk.removeAll(keepingCapacity: true)
                if let flush { flush(&out) }
            }
            var conversion = document.format.markup == .srt ? CueConversion(document, to: .webvtt, numbersCues: true) : nil
            let cue: (Int) -> Cue = { index in conversion == nil ? document.cues[index] : conversion!.cue(at: index) }
            let written: [CaptionDiagnostic]
            switch format {
            case .scc: written = SCCWriter().write(count: document.cues.count, start: { document.cues[$0].start }, cue: cue, to: sink)
            case .sami:
                written = SAMIWriter().write(count: document.cues.count, header: document.format == .sami ? document.header : "", cue: cue, to: sink)
            case .ass: written = ASSWriter().write(count: document.cues.count, cue: cue, to: sink)
            case .sbv: written = SBVWriter().write(count: document.cues.count, cue: cue, to: sink)
            default: written = TTMLWriter().write(count: document.cues.count, cue: cue, to: sink)
            }
            return (conversion?.diagnostics ?? []) + written
        }
        var document = document
        if document.format == .sami { document.header = "" }  // its language class: not a WebVTT header
        if document.format.markup == .webvtt { document.format = .webvtt }  // other formats' cue text is WebVTT's
        if document.format == format {
            var input = document
            return format == .webvtt
                ? CaptionWriting.write(&input, with: WebVTTWriter(), into: &out, flushing: flush)
                : CaptionWriting.write(&input, with: SRTWriter(), into: &out, flushing: flush)
        }
        var conversion = CueConversion(document, to: format)
        let written =
            format == .webvtt
            ? CaptionWriting.write(&conversion, with: WebVTTWriter(), into: &out, flushing: flush)
            : CaptionWriting.write(&conversion, with: SRTWriter(), into: &out, flushing: flush)
        return conversion.diagnostics + written
    }
}
