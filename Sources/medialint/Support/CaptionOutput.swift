import Captions
import FileAccess
import Foundation

/// Writing caption output: a chunk at a time, atomically to a file or to standard output; never over the
/// input by accident.
enum CaptionOutput {
    /// Writes `document` in `format` to `path` (`-`: standard output); returns the writer's diagnostics. Onto `input`
    /// only with `inPlace` (which keeps its backup first, when asked for, and removes it again if the write fails).
    /// Given the `original` read from the caption file `input`, a copy in its own format is the input patched
    /// (`CaptionPatch`): every byte but the edits as the input has it.
    static func write(
        _ document: CaptionDocument, as format: CaptionFormat, to path: String, input: String,
        inPlace: InPlaceOptions? = nil, original: CaptionDocument? = nil
    ) throws -> [CaptionDiagnostic] {
        var diagnostics: [CaptionDiagnostic] = []
        // Refused before anything is opened: a file in a format MediaLint does not write is never replaced by nothing.
        guard format.isWritable else {
            throw CLIError(
                "\(path): \(format.displayName) is read, not written: nothing was written (write the captions in another format: \((path as NSString).deletingPathExtension).srt, say)"
            )
        }
        if inPlace == nil { try OutputStream.refuseInputs(path, [input]) }
        if let original, format == original.format, CaptionFormat(pathExtension: (input as NSString).pathExtension) == format,
            CaptionPatch.patches(format)
        {
            switch patched(input, original: original, edited: document, writtenTo: path) {
            case .success(var bytes):
                try OutputStream.write(to: path) { sink in sink.take(&bytes) }
                return []
            case .failure(let refusal):
                Console.note("\(path): written whole by MediaLint's \(format.displayName) writer, not copied from \(input) with the edits (\(refusal.reason))")
            }
        }
        // A copy in the input's own format keeps its byte order mark and CR LF line breaks.
        let (byteOrderMark, crlf) = format == document.format ? layout(of: input, encoding: document.encoding) : (false, false)
        let backup = try inPlace?.keepBackup(of: path)
        do {
            try OutputStream.write(to: path) { sink in
                var first = true
                diagnostics = CaptionFile.write(document, as: format) { chunk in
                    if crlf { chunk = withCRLF(chunk) }
                    if first, byteOrderMark { chunk.insert(contentsOf: [0xEF, 0xBB, 0xBF], at: 0) }
                    first = false
                    sink.take(&chunk)
                }
            }
        } catch {
            if let backup { unlink(backup) }
            throw error
        }
        return diagnostics
    }

    /// Rewrites the caption file `path`, read as `original`, with `edited`'s changes (`--fix`, `--in-place`): SRT and
    /// WebVTT are patched where the edits are (`CaptionPatch`: every other byte comes back as it was); a file of
    /// another format is written whole only when that gives its own bytes back for the unedited document. Otherwise
    /// refused, nothing written. Returns the writer's diagnostics.
    static func rewrite(_ path: String, original: CaptionDocument, edited: CaptionDocument, inPlace: InPlaceOptions) throws -> [CaptionDiagnostic] {
        guard original.format.isWritable else {
            throw CLIError("\(path): \(original.format.displayName) is read, not written: nothing was written")
        }
        var bytes: [UInt8]
        var diagnostics: [CaptionDiagnostic] = []
        if CaptionPatch.patches(original.format) {
            switch patched(path, original: original, edited: edited, writtenTo: path) {
            case .success(let patched): bytes = patched
            case .failure(let refusal): throw CLIError("\(path): not rewritten: \(refusal.reason); nothing was written")
            }
        } else {
            let raw: [UInt8]
            do throws(CaptionError) { raw = try CaptionFile.readBytes(path) } catch { throw CLIError("\(path): \(error.message)") }
            let text = isUTF8(original.encoding) ? raw : ((try? TextDecoding.decode(raw, encoding: original.encoding).utf8) ?? [])
            guard CaptionFile.encode(original, as: original.format).bytes == text else {
                throw CLIError(
                    "\(path): not rewritten: MediaLint writes \(original.format.displayName) files whole, and this one would lose what it does not read (styles, comments, other languages, metadata …); nothing was written (convert it to SRT or WebVTT to edit it)"
                )
            }
            (bytes, diagnostics) = CaptionFile.encode(edited, as: original.format)
            bytes = inEncoding(bytes, like: raw, of: original, writtenTo: path)
        }
        let backup = try inPlace.keepBackup(of: path)
        do {
            try OutputStream.write(to: path) { sink in sink.take(&bytes) }
        } catch {
            if let backup { unlink(backup) }
            throw error
        }
        return diagnostics
    }

    /// The caption file at `path`, read as `original`, with `edited`'s changes made in its own bytes (`CaptionPatch`),
    /// back in its own encoding and byte order mark when every character has a place in it (else UTF-8, said).
    private static func patched(
        _ path: String, original: CaptionDocument, edited: CaptionDocument, writtenTo target: String
    ) -> Result<[UInt8], CaptionPatch.Refusal> {
        let raw: [UInt8]
        do throws(CaptionError) { raw = try CaptionFile.readBytes(path) } catch { return .failure(CaptionPatch.Refusal(error.message)) }
        // The text as the reader saw it: the file itself when UTF-8 (its byte order mark kept), else decoded.
        let text = isUTF8(original.encoding) ? raw : ((try? TextDecoding.decode(raw, encoding: original.encoding).utf8) ?? [])
        return CaptionPatch.apply(to: text, original: original, edited: edited).map { inEncoding($0, like: raw, of: original, writtenTo: target) }
    }

    /// `utf8` back in the encoding `original` was read in from `raw` (and its byte order mark), when every character
    /// has a place in it; else as it is, said.
    private static func inEncoding(_ utf8: [UInt8], like raw: [UInt8], of original: CaptionDocument, writtenTo target: String) -> [UInt8] {
        guard !isUTF8(original.encoding) else { return utf8 }
        if let encoded = reencoded(utf8, like: raw, encoding: original.encoding) { return encoded }
        Console.note("\(target): written in UTF-8 (it was \(original.encoding), which cannot hold the edited text)")
        return utf8
    }

    /// `utf8` in `encoding`, after the byte order mark `raw` starts with (UTF-16 and UTF-32); nil when the encoding cannot
    /// hold it, or it would not read back the same.
    private static func reencoded(_ utf8: [UInt8], like raw: [UInt8], encoding: String) -> [UInt8]? {
        guard let encoded = TextDecoding.encode(utf8: utf8, as: encoding) else { return nil }
        let marks: [[UInt8]] = [[0xFF, 0xFE, 0x00, 0x00], [0x00, 0x00, 0xFE, 0xFF], [0xFF, 0xFE], [0xFE, 0xFF]]
        let name = encoding.lowercased()
        let mark =
            name.hasPrefix("utf-16") || name.hasPrefix("utf-32") ? marks.first { raw.starts(with: $0) && ($0.count == 4) == name.hasPrefix("utf-32") } : nil
        let bytes = (mark ?? []) + encoded
        guard (try? TextDecoding.decode(bytes, encoding: mark == nil ? encoding : nil).utf8) == utf8 else { return nil }
        return bytes
    }

    /// Whether the caption file at `path` (UTF-8) starts with a byte order mark, and whether its lines end in CR LF
    /// (most of those in its first 64 KB).
    private static func layout(of path: String, encoding: String) -> (byteOrderMark: Bool, crlf: Bool) {
        guard isUTF8(encoding), path != "-", let file = try? RegularFile(path: path) else { return (false, false) }
        let head = file.read(count: 65_536, at: 0)
        var crlf = 0, lf = 0
        for index in head.indices where head[index] == 0x0A {
            if index > 0, head[index - 1] == 0x0D { crlf += 1 } else { lf += 1 }
        }
        return (head.starts(with: [0xEF, 0xBB, 0xBF]), crlf > lf)
    }

    /// `chunk` with each LF a CR LF (the writers write LF alone).
    private static func withCRLF(_ chunk: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(chunk.count + chunk.count / 16)
        for byte in chunk {
            if byte == 0x0A { out.append(0x0D) }
            out.append(byte)
        }
        return out
    }

    /// Whether text read in `encoding` is the file's own bytes.
    static func isUTF8(_ encoding: String) -> Bool { ["utf-8", "ascii", "us-ascii"].contains(encoding.lowercased()) }
}
