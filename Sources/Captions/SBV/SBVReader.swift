/// Reads YouTube's SubViewer captions (`.sbv`): blocks of a timing line `H:MM:SS.mmm,H:MM:SS.mmm` and the text's lines,
/// a blank line after each. The text is plain: it becomes WebVTT cue text with `&`, `<` and `>` escaped.
public struct SBVReader: Sendable {
    public init() {}

    public func read(_ bytes: [UInt8], encoding: String? = nil) throws(CaptionError) -> CaptionDocument {
        try bytes.withUnsafeBufferPointer { (buffer) throws(CaptionError) in try read(buffer: buffer, encoding: encoding) }
    }

    /// Reads SBV from `buffer` (in place when it is UTF-8).
    public func read(buffer: UnsafeBufferPointer<UInt8>, encoding: String? = nil) throws(CaptionError) -> CaptionDocument {
        try read(buffer: buffer, encoding: encoding, mapping: nil)
    }

    /// Reads SBV from `buffer`, giving the pages of `mapping` back as it goes.
    func read(buffer: UnsafeBufferPointer<UInt8>, encoding: String?, mapping: MappedFile?) throws(CaptionError) -> CaptionDocument {
        let document = try TextDecoding.withUTF8(buffer, encoding: encoding) { (text, found) throws(CaptionError) in
            var document = CaptionDocument(format: .sbv, encoding: found.encoding)
            var pages = PageRelease(text: text, mapping: mapping)
            var lines = LineCursor(text)
            var body: [UInt8] = []
            var pending = lines.next()
            while let line = pending {
                pending = lines.next()
                pages.consumed(upTo: line.lowerBound)
                if text.isBlank(line) { continue }
                let number = lines.number - (pending == nil ? 0 : 1)
                let timing = text.trimmed(line)
                body.removeAll(keepingCapacity: true)
                while let next = pending, !text.isBlank(next) {
                    if !body.isEmpty { body.append(0x0A) }
                    WebVTTEscaping.append(text[next], to: &body)
                    pending = lines.next()
                }
                guard let (start, end) = Self.times(text, timing) else {
                    document.diagnostics.append(
                        CaptionDiagnostic(
                            line: number, rule: "sbv.timing",
                            message: "not a timing line (H:MM:SS.mmm,H:MM:SS.mmm): \"\(String(text.string(timing).prefix(60)))\"; the block is skipped"))
                    continue
                }
                var cue = Cue(start: start, end: end, text: String(decoding: body, as: UTF8.self))
                cue.line = Int32(clamping: number)
                if end < start {
                    document.diagnostics.append(CaptionDiagnostic(line: number, rule: "sbv.timing", message: "the caption ends before it starts"))
                }
                document.cues.append(cue)
            }
            return document
        }
        if document.cues.isEmpty, !document.diagnostics.isEmpty {
            throw CaptionError(rule: "sbv.timing", message: "not an SBV file: no block starts with a timing line (H:MM:SS.mmm,H:MM:SS.mmm)")
        }
        return document
    }

    /// `0:00:01.000,0:00:04.500`: hours (any digits), two-digit minutes and seconds, a fraction of one to three digits.
    static func times(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> (CaptionTime, CaptionTime)? {
        guard let comma = range.first(where: { text[$0] == 0x2C }),
            let start = time(text, range.lowerBound..<comma), let end = time(text, (comma + 1)..<range.upperBound)
        else { return nil }
        return (start, end)
    }

    static func time(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> CaptionTime? {
        var fields: [Int64] = [0]
        var digits = 0, fractionDigits = 0, inFraction = false
        for i in range {
            let byte = text[i]
            switch byte {
            case 0x30...0x39:
                guard digits < 16 else { return nil }
                fields[fields.count - 1] = fields[fields.count - 1] * 10 + Int64(byte - 0x30)
                digits += 1
                if inFraction { fractionDigits += 1 }
            case 0x3A where !inFraction && digits > 0 && fields.count < 3:
                fields.append(0)
                digits = 0
            case 0x2E where !inFraction && digits > 0 && fields.count == 3:
                fields.append(0)
                digits = 0
                inFraction = true
            default: return nil
            }
        }
        guard fields.count == 4, digits > 0, fractionDigits <= 3, fields[1] < 60, fields[2] < 60 else { return nil }
        var millis = fields[3]
        for _ in fractionDigits..<3 { millis *= 10 }
        return CaptionTime.checked(hours: fields[0], milliseconds: (fields[1] * 60 + fields[2]) * 1000 + millis)
    }
}
