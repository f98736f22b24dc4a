import Foundation

/// Reading and writing caption files: format from the extension or the content, encoding detected.
public enum CaptionFile {
    /// The format of a file: from its extension, else from its content (`WEBVTT` or `Scenarist_SCC` signature, XML
    /// (`<?xml` or `<tt`) for TTML, else SRT).
    public static func format(of path: String, bytes: [UInt8]) -> CaptionFormat {
        if let format = CaptionFormat(pathExtension: (path as NSString).pathExtension) { return format }
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3).prefix(13)) : Array(bytes.prefix(13))
        if start.starts(with: Array("WEBVTT".utf8)) { return .webvtt }
        if start.starts(with: Array("<?xml".utf8)) || start.starts(with: Array("<tt".utf8)) { return .ttml }
        return start == Array("Scenarist_SCC".utf8) ? .scc : .srt
    }

    /// Reads the caption file at `path` (mapped into memory and read in place, its pages given back as they
    /// are read: memory holds the cues, not the file).
    public static func read(
        _ path: String, format: CaptionFormat? = nil, encoding: String? = nil,
        mode: WebVTTReader.Mode = .lenient
    ) throws(CaptionError) -> CaptionDocument {
        let file = try MappedFile(path: path)
        defer { withExtendedLifetime(file) {} }  // the mapping must outlive every use of its buffer
        let buffer = file.buffer
        switch format ?? self.format(of: path, bytes: Array(buffer.prefix(16))) {
        case .webvtt: return try WebVTTReader(mode: mode).read(buffer: buffer, encoding: encoding, mapping: file)
        case .srt: return try SRTReader().read(buffer: buffer, encoding: encoding, mapping: file)
        case .scc: return try SCCReader().read(buffer: UnsafeRawBufferPointer(buffer)).document
        case .ttml: return try TTMLReader(mode: mode).read(buffer: UnsafeRawBufferPointer(buffer), mapping: file)
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
        if format == .scc || format == .ttml {
            // Cues in WebVTT syntax (an SRT cue converted each time the writer takes it: no converted copy), then 608
            // pairs or TTML, handed on a chunk at a time.
            let sink: (inout [UInt8]) -> Void = { chunk in
                out += chunk
                chunk.removeAll(keepingCapacity: true)
                if let flush { flush(&out) }
            }
            var conversion = document.format.markup == .srt ? CueConversion(document, to: .webvtt, numbersCues: true) : nil
            let cue: (Int) -> Cue = { index in conversion == nil ? document.cues[index] : conversion!.cue(at: index) }
            let written =
                format == .scc
                ? SCCWriter().write(count: document.cues.count, start: { document.cues[$0].start }, cue: cue, to: sink)
                : TTMLWriter().write(count: document.cues.count, cue: cue, to: sink)
            return (conversion?.diagnostics ?? []) + written
        }
        var document = document
        if document.format.markup == .webvtt { document.format = .webvtt }  // SCC's and TTML's cue text is WebVTT's
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
