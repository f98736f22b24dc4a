import TestSupport
import Testing

@testable import Captions

/// `TextShape` decides whether a writer can copy cue text as it is: checked against a byte-by-byte model on
/// random text made of the bytes that matter.
@Suite struct TextShapeTests {
    /// The meaning of each flag, one byte at a time.
    private func model(_ bytes: [UInt8]) -> (cr: Bool, arrow: Bool, empty: Bool, blank: Bool) {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        return (
            bytes.contains(0x0D), text.contains("-->"), lines.contains { $0.isEmpty },
            lines.contains { $0.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0C || $0 == 0x0D } }
        )
    }

    @Test func agreesWithTheByteModel() {
        var random = SeededRandom(seed: 42)
        let alphabet: [UInt8] = Array("ab -->\n\r\t\u{0C}é".utf8)
        for _ in 0..<20_000 {
            let length = Int(random.next() % 40)
            let bytes = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let shape = bytes.withUnsafeBufferPointer { TextShape(utf8: $0) }
            let expected = model(bytes)
            #expect(
                shape.hasCarriageReturn == expected.cr && shape.hasArrow == expected.arrow
                    && shape.hasEmptyLine == expected.empty && shape.hasBlankLine == expected.blank, "\(bytes)")
        }
    }
}
