import Foundation
import TestSupport
import Testing

@testable import Captions

/// Random documents written and read back are equal (seeded, so every run checks the same 300 documents).
@Suite struct RoundTripPropertyTests {
    @Test(arguments: 0..<150)
    func webVTT(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let document = randomWebVTT(&random)
        let (bytes, diagnostics) = WebVTTWriter().write(document)
        #expect(diagnostics.isEmpty)
        let read = try WebVTTReader().read(bytes)
        #expect(read.header == document.header)
        #expect(read.headerBlocks == document.headerBlocks)
        #expect(read.notes == document.notes)
        #expect(read.cues == document.cues)
        #expect(read.diagnostics.filter { $0.rule != "webvtt.timing-order" }.isEmpty, "\(read.diagnostics)")
        #expect(WebVTTWriter().write(read).bytes == bytes)
    }

    @Test(arguments: 0..<150)
    func srt(seed: UInt64) throws {
        var random = SeededRandom(seed: seed &+ 1000)
        var document = CaptionDocument(format: .srt)
        for i in 0..<Int.random(in: 0...12, using: &random) {
            var cue = Cue(
                identifier: String(i + 1), start: randomTime(&random), end: randomTime(&random),
                text: randomText(&random, markup: ["<i>", "</i>", "<b>", "</b>", "<font color=\"red\">", "</font>", "{\\an8}"]))
            if Bool.random(using: &random) {
                var settings = CueSettings()
                settings.srtCoordinates = "X1:\(Int.random(in: 0...999, using: &random)) X2:1 Y1:2 Y2:3"
                cue.settings = settings
            }
            document.cues.append(cue)
        }
        let bytes = SRTWriter().write(document).bytes
        let read = try SRTReader().read(utf8: bytes)
        #expect(read.cues == document.cues)
        #expect(SRTWriter().write(read).bytes == bytes)
    }

    // MARK: - Generators

    private func randomWebVTT(_ random: inout SeededRandom) -> CaptionDocument {
        var document = CaptionDocument(format: .webvtt)
        document.header = Bool.random(using: &random) ? "" : " " + word(&random) + (Bool.random(using: &random) ? "\nKind: captions" : "")
        var regionIDs: [String] = []
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            switch Int.random(in: 0...2, using: &random) {
            case 0: document.headerBlocks.append(.style("::cue(.\(word(&random))) { color: \(word(&random)); }"))
            case 1:
                var region = CueRegion(identifier: word(&random))
                region.width = percentage(&random)
                region.lines = Double(Int.random(in: 0...9, using: &random))
                region.anchorX = percentage(&random)
                region.viewportAnchorY = percentage(&random)
                region.scrollUp = Bool.random(using: &random)
                regionIDs.append(region.identifier)
                document.headerBlocks.append(.region(region))
            default: document.headerBlocks.append(.note(" " + word(&random)))
            }
        }
        let cueCount = Int.random(in: 0...15, using: &random)
        for _ in 0..<cueCount {
            var cue = Cue(
                identifier: Bool.random(using: &random) ? word(&random) : "", start: randomTime(&random), end: randomTime(&random),
                text: randomText(&random, markup: ["<i>", "</i>", "<v Ann>", "</v>", "<c.x>", "</c>", "&amp;", "&lt;", "<00:00:01.000>"]))
            var settings = CueSettings()
            if Bool.random(using: &random) {
                settings.line = Bool.random(using: &random) ? Double(Int.random(in: -5...20, using: &random)) : percentage(&random)
                settings.snapToLines = settings.line.map { $0 == $0.rounded() } ?? true
                settings.lineAlign = [.start, .center, .end].randomElement(using: &random)!
            }
            if Bool.random(using: &random) {
                settings.position = percentage(&random)
                settings.positionAlign = [.auto, .lineLeft, .center, .lineRight].randomElement(using: &random)!
            }
            if Bool.random(using: &random) { settings.size = percentage(&random) }
            if Bool.random(using: &random) { settings.align = [.start, .center, .end, .left, .right].randomElement(using: &random)! }
            if Bool.random(using: &random) { settings.vertical = [.horizontal, .verticalGrowingLeft, .verticalGrowingRight].randomElement(using: &random)! }
            if let id = regionIDs.randomElement(using: &random), Bool.random(using: &random) { settings.region = id }
            cue.settings = settings
            document.cues.append(cue)
        }
        for _ in 0..<Int.random(in: 0...2, using: &random) where cueCount > 0 {
            document.notes.append(CaptionNote(cuesBefore: Int.random(in: 1...cueCount, using: &random), text: "\n" + word(&random)))
        }
        document.notes.sort { $0.cuesBefore < $1.cuesBefore }
        return document
    }

    private func randomTime(_ random: inout SeededRandom) -> CaptionTime {
        CaptionTime(milliseconds: Int64.random(in: 0...(Bool.random(using: &random) ? 10_000_000 : 400_000_000_000), using: &random))
    }

    private func percentage(_ random: inout SeededRandom) -> Double {
        Double(Int.random(in: 0...100_000, using: &random)) / 1000
    }

    private func word(_ random: inout SeededRandom) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzÄßé漢字0123456789-_")
        return String((0..<Int.random(in: 1...8, using: &random)).map { _ in letters.randomElement(using: &random)! })
    }

    private func randomText(_ random: inout SeededRandom, markup: [String]) -> String {
        (0..<Int.random(in: 0...3, using: &random)).map { _ -> String in
            (0..<Int.random(in: 1...5, using: &random)).map { _ in
                Int.random(in: 0...3, using: &random) == 0 ? markup.randomElement(using: &random)! : word(&random)
            }.joined(separator: " ")
        }.joined(separator: "\n")
    }
}
