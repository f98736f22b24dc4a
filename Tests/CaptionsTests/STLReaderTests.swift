import Foundation
import Testing

@testable import Captions

/// EBU STL files built here byte by byte from EBU Tech 3264: a GSI block, then TTI blocks.
@Suite struct STLReaderTests {
    /// A GSI block: spaces, then the fields the reader uses.
    static func gsi(frameRate: String = "STL25.01", table: String = "00", display: String = "1", programmeStart: String = "10000000") -> [UInt8] {
        var block = [UInt8](repeating: 0x20, count: 1024)
        func put(_ text: String, at offset: Int) { block.replaceSubrange(offset..<(offset + text.utf8.count), with: Array(text.utf8)) }
        put("850", at: 0)
        put(frameRate, at: 3)
        put(display, at: 11)
        put(table, at: 12)
        put("09", at: 14)  // English
        put("Test programme", at: 16)
        put(programmeStart, at: 256)
        return block
    }

    /// A TTI block: subtitle number, extension block number, in and out time codes, vertical position, justification,
    /// comment flag, and the text field padded with 8Fh.
    static func tti(
        _ number: UInt16, extension ebn: UInt8 = 0xFF, _ timeIn: [UInt8], _ timeOut: [UInt8], row: UInt8 = 20, justification: UInt8 = 2,
        comment: UInt8 = 0, text: [UInt8]
    ) -> [UInt8] {
        var block: [UInt8] = [0, UInt8(number & 0xFF), UInt8(number >> 8), ebn, 0] + timeIn + timeOut + [row, justification, comment]
        block += text.prefix(112)
        block += [UInt8](repeating: 0x8F, count: 128 - block.count)
        return block
    }

    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Double height, start box twice: how teletext subtitles open a row.
    static let rowStart: [UInt8] = [0x0D, 0x0B, 0x0B]
    static let rowEnd: [UInt8] = [0x0A, 0x0A]

    @Test func teletextSubtitles() throws {
        let blocks =
            Self.tti(
                1, [10, 0, 1, 0], [10, 0, 3, 12],
                text: Self.rowStart + Self.ascii("Hello,") + Self.rowEnd + [0x8A, 0x8A] + Self.rowStart + Self.ascii("world") + Self.rowEnd)
            + Self.tti(
                2, [10, 0, 4, 0], [10, 0, 6, 0], text: [0x03] + Self.ascii("Yellow") + [0x07] + Self.ascii("white ") + [0x80] + Self.ascii("leaning") + [0x81])
            + Self.tti(
                3, [10, 0, 7, 0], [10, 0, 9, 0], row: 2, justification: 1,
                text: Self.ascii("Caf") + [0xC2] + Self.ascii("e ") + [0xD5] + Self.ascii(" na") + [0xC8] + Self.ascii("ive <3 & ") + [0xE9])
            + Self.tti(4, extension: 0x00, [10, 0, 10, 0], [10, 0, 12, 0], text: Self.ascii("A subtitle in"))
            + Self.tti(4, [10, 0, 10, 0], [10, 0, 12, 0], text: Self.ascii(" two blocks"))
            + Self.tti(5, [10, 0, 13, 0], [10, 0, 14, 0], comment: 1, text: Self.ascii("a comment"))
            + Self.tti(6, extension: 0xFE, [10, 0, 15, 0], [10, 0, 16, 0], text: Self.ascii("user data"))
        let document = try STLReader().read(Self.gsi() + blocks)
        #expect(document.format == .stl && document.encoding == "iso-6937")
        #expect(document.diagnostics.map(\.message) == ["times counted from the programme's start time code 10:00:00:00 (TCP)"])
        #expect(document.cues.map { [$0.start.milliseconds, $0.end.milliseconds] } == [[1000, 3480], [4000, 6000], [7000, 9000], [10000, 12000]])
        #expect(
            document.cues.map(\.text) == [
                "Hello,\nworld", "<c.yellow>Yellow </c>white <i>leaning</i>", "Café ♪ naïve &lt;3 &amp; Ø", "A subtitle in two blocks",
            ])
        #expect(document.cues.map(\.identifier) == ["1", "2", "3", "4"])
        #expect(document.cues[0].hasDefaultSettings && document.cues[1].hasDefaultSettings)
        #expect(document.cues[2].settings.align == .left && document.cues[2].settings.line == 4 && !document.cues[2].settings.snapToLines)
        #expect(CaptionFile.format(ofContent: Self.gsi() + blocks) == .stl)
    }

    /// An accent before a space is the accent written alone (ISO 6937's spacing forms), not a combining mark left over.
    @Test func anAccentOnASpaceStandsAlone() throws {
        let document = try STLReader().read(Self.gsi() + Self.tti(1, [10, 0, 1, 0], [10, 0, 2, 0], text: Self.ascii("a ") + [0xCD, 0x20] + Self.ascii(" b")))
        #expect(document.cues.map(\.text) == ["a ˝ b"])
    }

    /// 30 frames a second; the Cyrillic table (ISO 8859-5); a subtitle before the programme's start time code: the
    /// time codes are read as they are, and said.
    @Test func otherRatesTablesAndOrigins() throws {
        let privet: [UInt8] = [0xBF, 0xE0, 0xD8, 0xD2, 0xD5, 0xE2]  // "Привет" in ISO 8859-5
        let bytes =
            Self.gsi(frameRate: "STL30.01", table: "01", programmeStart: "00000500")
            + Self.tti(1, [0, 0, 1, 15], [0, 0, 2, 0], text: privet + Self.ascii(", world"))
        let document = try STLReader().read(bytes)
        #expect(document.encoding == "iso-8859-5")
        #expect(document.cues.map(\.text) == ["Привет, world"])
        #expect(document.cues.map { [$0.start.milliseconds, $0.end.milliseconds] } == [[1500, 2000]])
        #expect(document.diagnostics.map(\.message) == ["subtitles start before the programme's start time code (TCP): their time codes are read as they are"])
    }

    @Test func malformed() throws {
        #expect(
            throws: CaptionError(
                rule: "stl.gsi", message: "not an EBU STL file: no General Subtitle Information block naming its frame rate (STL25.01, STL30.01)")
        ) {
            try STLReader().read(Array("1\n00:00:01,000 --> 00:00:02,000\nHi\n".utf8))
        }
        #expect(throws: CaptionError(rule: "stl.gsi", message: "unknown character code table \"07\" (00 Latin, 01 Cyrillic, 02 Arabic, 03 Greek, 04 Hebrew)")) {
            try STLReader().read(Self.gsi(table: "07"))
        }
        // A time code out of range, and a file cut inside a block.
        let bytes =
            Self.gsi() + Self.tti(1, [10, 0, 1, 0], [10, 0, 2, 0], text: Self.ascii("kept"))
            + Self.tti(2, [10, 61, 1, 0], [10, 0, 2, 0], text: Self.ascii("bad"))
        let document = try STLReader().read(bytes + [0, 1, 2])
        #expect(document.cues.map(\.text) == ["kept"])
        #expect(
            document.diagnostics.map(\.message) == [
                "the file ends inside a TTI block (3 bytes left over)", "1 TTI block with a time code that is not one: left out",
                "times counted from the programme's start time code 10:00:00:00 (TCP)",
            ])
        // Read, not written.
        let (written, diagnostics) = CaptionFile.encode(document, as: .stl)
        #expect(written.isEmpty && diagnostics.map(\.message) == ["EBU STL is read, not written"])
    }
}
