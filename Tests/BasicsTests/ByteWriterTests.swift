import Testing

@testable import Basics

/// The streaming writers against the simplest statement of what they must write.
@Suite struct ByteWriterTests {
    /// A small deterministic generator (the tests need no more).
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 17
        }
    }

    private func json(pretty: Bool = false, _ body: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter(pretty: pretty)
        body(&writer)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Milliseconds written as seconds are the bytes the Double would give.
    @Test func thousandthsAreTheDoubleWritten() {
        var random = Generator(state: 7)
        var values: [Int64] = [
            0, 1, -1, 999, -999, 1000, -1000, 1500, -500, 10, 100, 123_456_789, 999_999_999_999_999, -999_999_999_999_999,
            1_000_000_000_000_000, Int64.max, Int64.min + 1,
        ]
        for _ in 0..<20_000 { values.append(Int64(bitPattern: random.next()) % 10_000_000_000) }
        for value in values {
            #expect(json { $0.number(thousandths: value) } == json { $0.number(Double(value) / 1000) }, "\(value)")
        }
    }

    /// An array written in slices by writers of its own, added in order, is the array written by one writer.
    @Test(arguments: [false, true])
    func arraysInSlicesAreOneArray(pretty: Bool) {
        func element(_ index: Int, _ writer: inout JSONWriter) {
            writer.beginObject()
            writer.key("id"); writer.integer(index)
            writer.key("text"); writer.string("line \(index)\n\"quoted\"")
            writer.key("empty"); writer.beginObject(); writer.endObject()
            writer.endObject()
        }
        let whole = json(pretty: pretty) { writer in
            writer.beginObject(); writer.key("items"); writer.beginArray()
            for index in 0..<10 { element(index, &writer) }
            writer.endArray(); writer.endObject()
        }
        let sliced = json(pretty: pretty) { writer in
            writer.beginObject(); writer.key("items"); writer.beginArray()
            for range in [0..<3, 3..<3, 3..<10] {
                var slice = JSONWriter(pretty: pretty, elementsOfArrayAtDepth: 2, afterFirst: range.lowerBound > 0)
                for index in range { element(index, &slice) }
                var bytes = slice.bytes
                writer.appendElements(&bytes, count: range.count)
            }
            writer.endArray(); writer.endObject()
        }
        #expect(sliced == whole)
        let empty = json(pretty: pretty) { writer in
            writer.beginArray()
            var none: [UInt8] = []
            writer.appendElements(&none, count: 0)
            writer.endArray()
        }
        #expect(empty == "[]")
    }

    /// Slice writers used again for later runs of elements (`restartElements`), their bytes handed on by a
    /// streaming writer as they are (`appendElements(of:)`), give the array one writer gives; the long runs go on
    /// in chunk-size pieces.
    @Test(arguments: [false, true])
    func reusedSliceWritersGiveOneArray(pretty: Bool) {
        func element(_ index: Int, _ writer: inout JSONWriter) {
            writer.beginObject()
            writer.key("id"); writer.integer(index)
            writer.key("text"); writer.string(index % 7 == 0 ? "tab\there \u{1}" : "line \(index)\n\"quoted\" \\ é")
            writer.endObject()
        }
        let count = 30_000
        let whole = json(pretty: pretty) { writer in
            writer.beginObject(); writer.key("items"); writer.beginArray()
            for index in 0..<count { element(index, &writer) }
            writer.endArray(); writer.endObject()
        }
        var streamed: [UInt8] = []
        var largest = 0
        var writer = JSONWriter(pretty: pretty) { chunk in
            streamed.append(contentsOf: chunk)
            largest = max(largest, chunk.count)
        }
        writer.beginObject(); writer.key("items"); writer.beginArray()
        var even = JSONWriter(pretty: pretty, elementsOfArrayAtDepth: 2, afterFirst: false, capacity: 16)
        var odd = JSONWriter(pretty: pretty, elementsOfArrayAtDepth: 2, afterFirst: false, capacity: 16)
        func run(_ slice: inout JSONWriter, _ range: Range<Int>) {
            slice.restartElements(atDepth: 2, afterFirst: range.lowerBound > 0)
            for index in range { element(index, &slice) }
            writer.appendElements(of: slice, count: range.count)
        }
        var start = 0
        for (number, length) in [0, 1, 2, 500, 9_000, 0, 20_497].enumerated() {
            if number % 2 == 0 { run(&even, start..<(start + length)) } else { run(&odd, start..<(start + length)) }
            start += length
        }
        #expect(start == count)
        writer.endArray(); writer.endObject()
        writer.finish()
        #expect(String(decoding: streamed, as: UTF8.self) == whole)
        #expect(largest <= ByteWriter.chunkSize + 4096)
    }

    /// A streaming writer hands a long string on in pieces: the bytes are those of one piece, and no chunk
    /// handed on is much larger than a chunk.
    @Test func longStringsAreHandedOnInPieces() {
        let long = String(repeating: "<b>a\"é</b>\n", count: 200_000)  // 2.4 MB, with characters to escape
        var streamed: [UInt8] = []
        var largest = 0
        var writer = JSONWriter(pretty: true) { chunk in
            streamed.append(contentsOf: chunk)
            largest = max(largest, chunk.count)
        }
        writer.beginArray(); writer.string(long); writer.string("after"); writer.endArray()
        writer.finish()
        #expect(
            String(decoding: streamed, as: UTF8.self)
                == json(pretty: true) {
                    $0.beginArray(); $0.string(long); $0.string("after"); $0.endArray()
                })
        #expect(largest <= 2 * ByteWriter.chunkSize + 64)
    }

    /// A string written again by copying its escaped bytes is the string written again.
    @Test func copiedStringsAreTheStringWritten() {
        let text = "tab\there \"quoted\" \u{01}"
        let copied = json { writer in
            writer.beginArray()
            let written = writer.stringMarkingBytes(text)
            writer.string(copying: written!)
            writer.endArray()
        }
        #expect(
            copied
                == json {
                    $0.beginArray(); $0.string(text); $0.string(text); $0.endArray()
                })
        var streaming = JSONWriter { _ in }
        #expect(streaming.stringMarkingBytes(text) == nil, "a streaming writer may have handed the bytes on")
    }

    /// XML escaping, scalar by scalar as XML 1.0 says, against the byte-level escaper.
    @Test func xmlEscapingFollowsTheScalarRules() {
        func model(_ text: String) -> String {
            var output = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": output += "&amp;"
                case "<": output += "&lt;"
                case ">": output += "&gt;"
                case "\"": output += "&quot;"
                case "'": output += "&apos;"
                case "\t", "\n", "\r": output.unicodeScalars.append(scalar)
                default:
                    if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                    output.unicodeScalars.append(scalar)
                }
            }
            return output
        }
        let alphabet: [Unicode.Scalar] = [
            "a", "&", "<", ">", "\"", "'", "\t", "\n", "\r", "\u{01}", "\u{1F}", "\u{7F}", "é", "\u{FFFE}", "\u{FFFF}",
            "\u{FFFD}", "\u{EFBF}", "😀", "\u{F000}",
        ]
        var random = Generator(state: 11)
        for _ in 0..<5_000 {
            var text = ""
            for _ in 0..<Int(random.next() % 24) { text.unicodeScalars.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
            #expect(XMLText.escape(text) == model(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
