import Foundation
import Testing

@testable import Captions

/// The lenient SRT reader: what real files do, read sensibly, each deviation a diagnostic.
@Suite struct SRTReaderTests {
    private func read(_ text: String) throws -> CaptionDocument { try SRTReader().read(utf8: Array(text.utf8)) }

    private func times(_ document: CaptionDocument) -> [[Int64]] {
        document.cues.map { [$0.start.milliseconds, $0.end.milliseconds] }
    }

    @Test func canonicalFile() throws {
        let document = try read("1\n00:00:01,000 --> 00:00:02,500\nHello\nworld\n\n2\n00:00:03,000 --> 00:00:04,000\n<i>Bye</i>\n")
        #expect(times(document) == [[1000, 2500], [3000, 4000]])
        #expect(document.cues.map(\.text) == ["Hello\nworld", "<i>Bye</i>"])
        #expect(document.cues.map(\.identifier) == ["1", "2"])
        #expect(document.diagnostics.isEmpty)
    }

    @Test func missingAndOutOfOrderIndices() throws {
        let document = try read("00:00:01,000 --> 00:00:02,000\nno index\n\n5\n00:00:03,000 --> 00:00:04,000\nfive\n")
        #expect(document.cues.map(\.text) == ["no index", "five"])
        #expect(document.diagnostics.map(\.rule) == ["srt.index", "srt.index-order"])
        #expect(document.diagnostics.map(\.line) == [1, 4])
    }

    @Test func looseTimes() throws {
        let document = try read(
            """
            1
            0:0:1.5 --> 0:00:02,25
            dot, loose digits, short fractions

            2
            123:00:00,000 --> 123:00:01,0004
            hours above 99, four fraction digits

            3
            00:00:05 --> 00:00:06
            no milliseconds

            """)
        #expect(times(document) == [[1500, 2250], [442_800_000, 442_801_000], [5000, 6000]])
        #expect(document.diagnostics.allSatisfy { $0.rule == "srt.timing-format" })
        #expect(document.diagnostics.contains { $0.message.contains("\".\" instead of \",\"") })
        #expect(document.diagnostics.contains { $0.message.contains("\",5\" is 500 ms") })
    }

    /// Whatever hours a writer writes (any Int64 of milliseconds) read back; beyond that it is not a time.
    @Test func hugeHours() throws {
        let document = try read(
            "1\n2222222222222:01:00,000 --> 2562047788015:12:55,807\nfar\n\n2\n9999999999999:00:00,000 --> 9999999999999:00:00,001\ntoo far\n")
        #expect(times(document) == [[7_999_999_999_999_260_000, Int64.max]])
        #expect(document.cues.map(\.text) == ["far"])
        #expect(document.diagnostics.map(\.rule) == ["srt.timing"])
    }

    @Test func coordinatesAreKept() throws {
        let document = try read("1\n00:00:01,000 --> 00:00:02,000  X1:100 X2:600 Y1:050 Y2:100\nplaced\n")
        #expect(document.cues.first?.settings.srtCoordinates == "X1:100 X2:600 Y1:050 Y2:100")
        #expect(document.cues.first?.text == "placed")
    }

    /// A number alone is text unless a timing line follows it.
    @Test func numberLineInsideText() throws {
        let document = try read("1\n00:00:01,000 --> 00:00:02,000\nThe answer is\n42\n\n2\n00:00:03,000 --> 00:00:04,000\nnext\n")
        #expect(document.cues.map(\.text) == ["The answer is\n42", "next"])
    }

    @Test func missingBlankLineBetweenCues() throws {
        let document = try read("1\n00:00:01,000 --> 00:00:02,000\nfirst\n2\n00:00:03,000 --> 00:00:04,000\nsecond\n")
        #expect(document.cues.map(\.text) == ["first", "second"])
        #expect(document.diagnostics.map(\.rule) == ["srt.missing-blank-line"])
    }

    @Test func blankLineInsideText() throws {
        let document = try read("1\n00:00:01,000 --> 00:00:02,000\nfirst paragraph\n\nsecond paragraph\n\n\n\n2\n00:00:03,000 --> 00:00:04,000\nnext\n")
        #expect(document.cues.map(\.text) == ["first paragraph\n\nsecond paragraph", "next"])
        #expect(document.diagnostics.map(\.rule) == ["srt.blank-line"])
    }

    @Test func lineEndingsAndWhitespaceLines() throws {
        let document = try read("\r\n\r\n1\r\n00:00:01,000 --> 00:00:02,000\r\nwindows\r\nlines\r\n  \r\n2\r00:00:03,000 --> 00:00:04,000\rold mac\r")
        #expect(document.cues.map(\.text) == ["windows\nlines", "old mac"])
    }

    @Test func garbageAndBadTimingsAreSkipped() throws {
        let document = try read("junk at the top\n\n1\n00:00:01,000 -> 00:00:02,000\nbad arrow\n\n2\n00:00:03,000 --> 00:00:04,000\ngood\n")
        #expect(document.cues.map(\.text) == ["good"])
        #expect(document.diagnostics.map(\.rule) == ["srt.garbage", "srt.garbage"])  // cue 2 follows the skipped block 1: in order
        let arrow = try read("1\n00:00:01,000 --> 00:0x:02,000\ntext\n\n2\n00:00:03,000 --> 00:00:04,000\nfine\n")
        #expect(arrow.cues.map(\.text) == ["fine"])
        #expect(arrow.diagnostics.map(\.rule) == ["srt.timing"])
        #expect(arrow.diagnostics.map(\.line) == [2])
        #expect(arrow.diagnostics.first?.severity == .error)
    }

    @Test func emptyCueAndEmptyFile() throws {
        #expect(try read("").cues.isEmpty)
        let document = try read("1\n00:00:01,000 --> 00:00:02,000\n\n2\n00:00:03,000 --> 00:00:04,000\nafter an empty cue\n")
        #expect(document.cues.map(\.text) == ["", "after an empty cue"])
    }

    @Test func endBeforeStartIsKeptAndReported() throws {
        let document = try read("1\n00:00:05,000 --> 00:00:02,000\nbackwards\n")
        #expect(document.cues.count == 1)
        #expect(document.diagnostics.map(\.rule) == ["srt.timing-order"])
    }

    // MARK: - Encodings

    private let sample = "1\n00:00:01,000 --> 00:00:02,000\nCafé – naïve “quotes” €\n"

    @Test func utf8WithAndWithoutBOM() throws {
        for bytes in [Array(sample.utf8), [0xEF, 0xBB, 0xBF] + Array(sample.utf8)] {
            let document = try SRTReader().read(bytes)
            #expect(document.encoding == "utf-8")
            #expect(document.cues.first?.text == "Café – naïve “quotes” €")
            #expect(document.diagnostics.isEmpty)
        }
    }

    @Test func utf16WithBOM() throws {
        let little = [UInt8]([0xFF, 0xFE]) + sample.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let big = [UInt8]([0xFE, 0xFF]) + sample.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(try SRTReader().read(little).encoding == "utf-16le")
        #expect(try SRTReader().read(little).cues.first?.text == "Café – naïve “quotes” €")
        #expect(try SRTReader().read(big).encoding == "utf-16be")
        #expect(try SRTReader().read(big).cues.first?.text == "Café – naïve “quotes” €")
    }

    @Test func windows1252Fallback() throws {
        let bytes = Array("1\n00:00:01,000 --> 00:00:02,000\nCaf".utf8) + [0xE9, 0x20, 0x96, 0x20, 0x80, 0x0A]
        let document = try SRTReader().read(bytes)
        #expect(document.encoding == "windows-1252")
        #expect(document.cues.first?.text == "Café – €")
        #expect(document.diagnostics.first?.rule == "srt.encoding")
    }

    @Test func namedEncoding() throws {
        // "Привет" in Windows-1251.
        let bytes = Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8) + [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2, 0x0A]
        let document = try SRTReader().read(bytes, encoding: "windows-1251")
        #expect(document.cues.first?.text == "Привет")
        #expect(throws: CaptionError.self) { try SRTReader().read(bytes, encoding: "no-such-encoding") }
        #expect(throws: CaptionError.self) { try SRTReader().read([0xFF, 0xFF, 0x0A], encoding: "utf-16") }  // odd length
    }
}
