import Foundation
import TestSupport
import Testing

@testable import Captions

/// Long files are parsed in parts on all cores: the document must be the one a single pass gives, cue for cue,
/// diagnostic for diagnostic (with their lines), notes in place — on files with every quirk the readers recover from.
@Suite struct ParallelParsingTests {
    /// A messy SRT file: index jumps, broken timing lines, blank lines inside text, named indices, CR LF blocks.
    static func messySRT(cues: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        var text = ""
        var index = 1
        for n in 0..<cues {
            let time = "00:\(String(format: "%02d:%02d", n / 60 % 60, n % 60)),000 --> 00:\(String(format: "%02d:%02d", n / 60 % 60, n % 60)),500"
            switch random.next() % 40 {
            case 0: text += "\(index + 5)\n\(time)\nindex jump\n\n"; index += 6
            case 1: text += "\(index)\n00:00:0x,000 --> 00:00:02,000\nbroken\n\n"; index += 1
            case 2: text += "\(index)\n\(time)\nfirst paragraph\n\nsecond paragraph\n\n"; index += 1
            case 3: text += "Subtitle \(index)\n\(time)\nnamed\n\n"; index += 1
            case 4: text += "\(index)\r\n\(time)\r\ncr lf \(n)\r\n\r\n"; index += 1
            case 5: text += "\(index)\n\(time)\nno blank line after\n"; index += 1
            case 6: text += "\(index)\n00:00:0x,000 --> 00:00:02,000\n\(time)\nresumed at the good timing line\n\n"; index += 1
            default: text += "\(index)\n\(time)\nline \(n) <i>x</i>\n\n"; index += 1
            }
        }
        return Array(text.utf8)
    }

    static func messyWebVTT(cues: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        var text = "WEBVTT - messy\nKind: captions\n\nSTYLE\n::cue(.loud) { color: red }\n\nREGION\nid:fred width:40%\n\nNOTE in the header\n\n"
        for n in 0..<cues {
            let time = "00:\(String(format: "%02d:%02d", n / 60 % 60, n % 60)).000 --> 00:\(String(format: "%02d:%02d", n / 60 % 60, n % 60)).500"
            switch random.next() % 40 {
            case 0: text += "NOTE note \(n)\nsecond line\n\n"
            case 1: text += "\(time) region:fred line:0\n<v Ann>in a region \(n)\n\n"
            case 2: text += "id\(n)\n00:00:0x.000 --> 00:00:01.000\nbroken\n\n"
            case 3: text += "STYLE\n::cue {}\n\n"
            case 4: text += "\(time) bogus:1\nsetting\n\(time)\nno blank line\n\n"
            case 5: text += "\(time)\r\ncr lf \(n)\r\n\r\n"
            default: text += "\(n)\n\(time)\nline \(n) <i>x</i> &amp; <c.loud>y</c>\n\n"
            }
        }
        return Array(text.utf8)
    }

    private func expectSame(_ parts: CaptionDocument, _ one: CaptionDocument) {
        #expect(parts.cues.count == one.cues.count)
        #expect(parts.cues == one.cues)
        #expect(parts.cues.map(\.line) == one.cues.map(\.line))
        #expect(parts.diagnostics == one.diagnostics)
        #expect(parts.notes == one.notes)
        #expect(parts.headerBlocks == one.headerBlocks)
        #expect(parts.header == one.header)
    }

    @Test(arguments: [2, 3, 5])
    func srtInPartsIsOnePass(parts: Int) throws {
        let bytes = Self.messySRT(cues: 6_000, seed: UInt64(parts))
        try bytes.withUnsafeBufferPointer { buffer in
            let text = ByteText(bytes: buffer, collapsesCarriageReturnRuns: true)
            let (document, _) = try #require(SRTReader.parseInParts(text, parts: parts))
            let one = try SRTReader().read(utf8: bytes)
            #expect(one.diagnostics.count > 300)
            expectSame(document, one)
        }
    }

    @Test(arguments: [2, 3, 5])
    func webVTTInPartsIsOnePass(parts: Int) throws {
        let bytes = Self.messyWebVTT(cues: 6_000, seed: UInt64(parts))
        try bytes.withUnsafeBufferPointer { buffer in
            let document = try #require(WebVTTReader.parseInParts(ByteText(bytes: buffer), parts: parts))
            let one = try WebVTTReader().read(utf8: bytes)
            #expect(one.notes.count > 100)
            #expect(one.diagnostics.count > 300)
            expectSame(document, one)
        }
    }

    /// Index order is judged across the parts as in one pass: every index here skips one, so wherever the parts
    /// are cut, the first cue of each part must be reported as the one pass reports it.
    @Test(arguments: [2, 3, 7])
    func indexOrderAcrossParts(parts: Int) throws {
        var text = ""
        for n in 1...300 { text += "\(2 * n)\n00:00:01,000 --> 00:00:02,000\ncue \(n)\n\n" }
        let bytes = Array(text.utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            let (document, _) = try #require(SRTReader.parseInParts(ByteText(bytes: buffer, collapsesCarriageReturnRuns: true), parts: parts))
            expectSame(document, try SRTReader().read(utf8: bytes))
            #expect(document.diagnostics.count == 300)
            #expect(document.diagnostics.last?.message == "cue index 600 where 599 was expected")
        }
    }
}
