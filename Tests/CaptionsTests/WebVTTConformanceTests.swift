import Foundation
import Testing

@testable import Captions

/// web-platform-tests' WebVTT parsing suite (Fixtures/webvtt-wpt, compared as its README says).
@Suite struct WebVTTConformanceTests {
    static let fileCases: [String] = {
        let manifest = (try? Fixtures.json("webvtt-wpt/manifest.json") as? [[String: Any]]) ?? []
        return manifest.compactMap { $0["dir"] as? String }.filter { $0.hasPrefix("file-parsing/") }
    }()
    static let invalidSignatures: [String] = (try? Fixtures.files(in: "webvtt-wpt/file-parsing-invalid")) ?? []
    /// One JSON object per line.
    static let cueTextLines: [String] = {
        guard let text = try? String(contentsOf: Fixtures.url("webvtt-wpt/cue-text-parsing/cases.jsonl"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }()

    @Test func suiteIsComplete() {
        #expect(Self.fileCases.count == 40)
        #expect(Self.invalidSignatures.count == 9)
        #expect(Self.cueTextLines.count == 77)
    }

    @Test(arguments: fileCases)
    func fileParsing(directory: String) throws {
        let expected = try #require(try Fixtures.json("webvtt-wpt/\(directory)/expected.json") as? [String: Any])
        let document = try WebVTTReader().read(Fixtures.bytes("webvtt-wpt/\(directory)/input.vtt"))
        if let count = expected["cue_count"] as? Int {
            #expect(document.cues.count == count)
        }
        let cues = expected["cues"] as? [[String: Any]] ?? []
        for entry in cues {
            let index = try #require(entry["index"] as? Int)
            guard index < document.cues.count else {
                Issue.record("cue \(index) missing")
                continue
            }
            compare(document.cues[index], with: entry, regions: document.regions, context: "\(directory) cue \(index)")
        }
    }

    @Test(arguments: invalidSignatures)
    func invalidSignatureIsRejected(file: String) throws {
        let bytes = try Fixtures.bytes("webvtt-wpt/file-parsing-invalid/\(file)")
        #expect(throws: CaptionError.self) { try WebVTTReader().read(bytes) }
    }

    @Test(arguments: 0..<77)
    func cueTextParsing(index: Int) throws {
        let line = try #require(Self.cueTextLines.count > index ? Self.cueTextLines[index] : nil)
        let testCase = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let vtt = try #require(testCase["vtt"] as? String)
        let document = try WebVTTReader().read(Array(vtt.utf8))
        let cue = try #require(document.cues.first)
        let expected = try #require(testCase["expected_tree"] as? [Any])
        let ours = cue.nodes.map(Self.wptShape)
        #expect(NSArray(array: ours).isEqual(to: expected), "input \(String(reflecting: testCase["cue_text"] ?? ""))\nours \(ours)\nexpected \(expected)")
    }

    // MARK: - Comparison

    /// A node in the WPT harness's JSON shape: c → span, v → span title, lang → span lang.
    static func wptShape(_ node: CueNode) -> Any {
        switch node {
        case .text(let value): return ["type": "text", "value": value]
        case .timestamp(let time): return ["type": "timestamp", "value": time.webVTTString]
        case .element(let element):
            var attributes: [String: String] = [:]
            if !element.classes.isEmpty { attributes["class"] = element.classes.joined(separator: " ") }
            let name: String
            switch element.kind {
            case .class, .font: name = "span"
            case .voice:
                name = "span"
                attributes["title"] = element.annotation
            case .language:
                name = "span"
                attributes["lang"] = element.language ?? ""
            default: name = element.kind.rawValue
            }
            return ["type": "element", "name": name, "attributes": attributes, "children": element.children.map(wptShape)]
        }
    }

    /// The cue's start or end time as the JS harness computes it (whole seconds plus milliseconds / 1000).
    static func jsSeconds(_ time: CaptionTime) -> Double {
        Double(time.milliseconds / 1000) + Double(time.milliseconds % 1000) / 1000
    }

    private func compare(_ cue: Cue, with entry: [String: Any], regions: [CueRegion], context: String) {
        let settings = cue.settings
        for (key, value) in entry where key != "index" {
            switch key {
            case "id": #expect(cue.identifier == value as? String, "\(context) id")
            case "text": #expect(cue.text == value as? String, "\(context) text")
            case "startTime": #expect(Self.jsSeconds(cue.start) == (value as? NSNumber)?.doubleValue, "\(context) start")
            case "endTime": #expect(Self.jsSeconds(cue.end) == (value as? NSNumber)?.doubleValue, "\(context) end")
            case "line":
                if value as? String == "auto" {
                    #expect(settings.line == nil, "\(context) line")
                } else {
                    expectSameValue(settings.line, value, "\(context) line")
                }
            case "snapToLines": #expect(settings.snapToLines == (value as? Bool), "\(context) snapToLines")
            case "lineAlign": #expect(settings.lineAlign.rawValue == value as? String, "\(context) lineAlign")
            case "position":
                if value as? String == "auto" {
                    #expect(settings.position == nil, "\(context) position")
                } else {
                    expectSameValue(settings.position, value, "\(context) position")
                }
            case "positionAlign": #expect(settings.positionAlign.rawValue == value as? String, "\(context) positionAlign")
            case "size": expectSameValue(settings.size, value, "\(context) size")
            case "align": #expect(settings.align.rawValue == value as? String, "\(context) align")
            case "vertical": #expect(settings.vertical.rawValue == value as? String, "\(context) vertical")
            case "region":
                if value is NSNull {
                    #expect(settings.region == nil, "\(context) region")
                } else if let fields = value as? [String: Any] {
                    guard let id = settings.region, let region = regions.last(where: { $0.identifier == id }) else {
                        Issue.record("\(context): expected a region")
                        continue
                    }
                    compare(region, with: fields, context: context)
                }
            default: Issue.record("\(context): unknown property \(key)")
            }
        }
    }

    private func compare(_ region: CueRegion, with fields: [String: Any], context: String) {
        for (key, value) in fields {
            let actual: Any =
                switch key {
                case "id": region.identifier
                case "width": region.width
                case "lines": region.lines
                case "regionAnchorX": region.anchorX
                case "regionAnchorY": region.anchorY
                case "viewportAnchorX": region.viewportAnchorX
                case "viewportAnchorY": region.viewportAnchorY
                case "scroll": region.scrollUp ? "up" : ""
                default: "unknown"
                }
            if let number = actual as? Double {
                expectSameValue(number, value, "\(context) region \(key)")
            } else {
                #expect(actual as? String == value as? String, "\(context) region \(key)")
            }
        }
    }

    /// testharness.js assert_equals: SameValue (exact, and +0 is not -0).
    private func expectSameValue(_ actual: Double?, _ expected: Any, _ context: String) {
        guard let actual, let number = (expected as? NSNumber)?.doubleValue else {
            Issue.record("\(context): \(String(describing: actual)) vs \(expected)")
            return
        }
        #expect(actual == number && actual.sign == number.sign, "\(context): \(actual) vs \(number)")
    }
}
