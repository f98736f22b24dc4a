import Foundation

/// Most cue text is words with at most a few `<i>`, `<b>` or `<u>` tags: text that WebVTT and SubRip write the
/// same way and whose plain text is the text without its tags. It is recognised here in one pass over its bytes,
/// so that converting, writing and showing it need no tokenizer; anything else goes through the full rules.
enum SimpleMarkup {
    /// What one pass found: nil when the text is not simple, else whether it has tags.
    struct Shape {
        var hasTags: Bool
    }

    /// The shape of `text`, or nil when it holds anything but balanced lowercase `<i> <b> <u>` tags and text
    /// without `&`, `<`, `>`, `{` (references, other tags, override blocks, escapes).
    static func shape(of text: String) -> Shape? {
        text.withUTF8Bytes { shape(of: $0) }
    }

    static func shape(of bytes: UnsafeBufferPointer<UInt8>) -> Shape? {
        var open: UInt32 = 0  // open tags, innermost in the low byte; at most 4 deep
        var depth = 0
        var hasTags = false
        var i = 0
        let n = bytes.count
        guard let base = bytes.baseAddress else { return Shape(hasTags: false) }
        let raw = UnsafeRawPointer(base)
        while i < n {
            // Eight bytes at a time while none of them is special (the usual case: words and spaces).
            while i + 8 <= n, !hasSpecialByte(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { i += 8 }
            guard i < n else { break }
            let byte = bytes[i]
            // Every special byte is "&" (0x26), "<" (0x3C), ">" (0x3E) or "{" (0x7B): one compare rules out the rest.
            if byte != 0x26, byte != 0x3C, byte != 0x3E, byte != 0x7B {
                i += 1
                continue
            }
            guard byte == 0x3C else { return nil }
            // "<x>" or "</x>" with x in i, b, u.
            if i + 2 < n, bytes[i + 2] == 0x3E, isSimpleTag(bytes[i + 1]) {
                guard depth < 4 else { return nil }
                open = open << 8 | UInt32(bytes[i + 1])
                depth += 1
                i += 3
            } else if i + 3 < n, bytes[i + 1] == 0x2F, bytes[i + 3] == 0x3E, isSimpleTag(bytes[i + 2]) {
                guard depth > 0, UInt8(truncatingIfNeeded: open) == bytes[i + 2] else { return nil }
                open >>= 8
                depth -= 1
                i += 4
            } else {
                return nil
            }
            hasTags = true
        }
        return depth == 0 ? Shape(hasTags: hasTags) : nil
    }

    /// True when one of the eight bytes of `word` is "&", "<", ">" or "{" (a zero byte of word XOR pattern;
    /// `(v - 0x01…) & ~v & 0x80…` is non-zero exactly when `v` has a zero byte).
    @inline(__always)
    static func hasSpecialByte(_ word: UInt64) -> Bool {
        @inline(__always) func zeroByte(_ v: UInt64) -> UInt64 { (v &- 0x0101_0101_0101_0101) & ~v & 0x8080_8080_8080_8080 }
        return
            (zeroByte(word ^ 0x2626_2626_2626_2626) | zeroByte(word ^ 0x3C3C_3C3C_3C3C_3C3C)
            | zeroByte(word ^ 0x3E3E_3E3E_3E3E_3E3E) | zeroByte(word ^ 0x7B7B_7B7B_7B7B_7B7B)) != 0
    }

    @inline(__always)
    private static func isSimpleTag(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "i") || byte == UInt8(ascii: "b") || byte == UInt8(ascii: "u")
    }

    /// Simple text without its tags.
    static func plainText(of text: String, _ shape: Shape) -> String {
        guard shape.hasTags else { return text }
        return text.withUTF8Bytes { bytes in
            var kept: [UInt8] = []
            kept.reserveCapacity(bytes.count)
            var i = 0
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "<") {
                    i += bytes[i + 1] == UInt8(ascii: "/") ? 4 : 3
                    continue
                }
                kept.append(bytes[i])
                i += 1
            }
            return String(decoding: kept, as: UTF8.self)
        }
    }
}

extension Array where Element == UInt8 {
    /// Appends the UTF-8 bytes of `text` (copied at once from a native string's storage). With `spill`, a text
    /// longer than a writer's chunk goes in chunk-sized pieces, `spill` getting the array after each.
    @inline(__always)
    mutating func appendUTF8(of text: String, spill: ((inout [UInt8]) -> Void)? = nil) {
        text.withUTF8Bytes { bytes in
            guard let spill, bytes.count > captionWriterChunkSize else {
                append(contentsOf: bytes)
                return
            }
            var from = 0
            while from < bytes.count {
                let to = Swift.min(bytes.count, from + captionWriterChunkSize)
                append(contentsOf: UnsafeBufferPointer(rebasing: bytes[from..<to]))
                spill(&self)
                from = to
            }
        }
    }
}

extension String {
    /// Calls `body` with the string's UTF-8 bytes: in place for native strings, else from a copy.
    @inline(__always)
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }

    /// True when the text has a tag whose name starts with one of `letters` (lowercase; either case matches),
    /// spaces and a "/" after the "<" allowed: a quick look for tags that matter before parsing any.
    func hasTag(startingWithAnyOf letters: StaticString) -> Bool {
        withUTF8Bytes { bytes in
            guard let base = bytes.baseAddress else { return false }
            let wanted = UnsafeBufferPointer(start: letters.utf8Start, count: letters.utf8CodeUnitCount)
            var from = 0
            while from < bytes.count, let found = memchr(base + from, 0x3C, bytes.count - from) {
                var i = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
                while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x2F || bytes[i] == 0x09 { i += 1 }
                if i < bytes.count, wanted.contains(bytes[i] | 0x20) { return true }
                from = i
            }
            return false
        }
    }

    /// True when some UTF-8 byte of the string is `byte` (scanned in place).
    @inline(__always)
    func containsUTF8Byte(_ byte: UInt8) -> Bool {
        withUTF8Bytes { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, Int32(byte), bytes.count) != nil
        }
    }
}
