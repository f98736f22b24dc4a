import Foundation
import Testing

/// The fast run (`make test-fast`) leaves out what needs generated media and what is slow, by their tags: a suite that
/// makes media — the ffmpeg CLI, espeak-ng or festival through TestSupport (`TestMediaCache`, `ExternalTool`, the speech
/// clips, the programmes, HLS test packages) or the clip helpers — is tagged `.media`, on the suite or on its tests that
/// do; and a `.media` or `.slow` tag always comes with `.notInFastRun`, which is what skips it.
@Suite struct TestTagsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// What makes media for a test.
    static let makesMedia = try! NSRegularExpression(
        pattern:
            #"TestMediaCache\.(file|folder|ffmpeg)|ExternalTool\.(run|shell|output)|SpeechClips\.(script|samples|media|captions|captionText)|Programme\.(forTests|make)|HLSTestPackage\.build|GeneratedClips\.(make|toggling)|AutoplaySite\.(page|media)|\"ffmpeg\""#
    )

    /// Every test file's top-level declarations, as (file, header line, text up to the next declaration).
    static func declarations() throws -> [(file: String, header: String, text: String)] {
        let tests = root.appendingPathComponent("Tests")
        let files = (FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("HouseRulesTests/") && !$0.contains("/Fixtures/") }
        let start = try NSRegularExpression(pattern: #"^(@Suite[^\n]*? )?(struct|final class|class|enum|extension) \w+"#, options: .anchorsMatchLines)
        var found: [(String, String, String)] = []
        for file in files.sorted() {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            let starts = start.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { Range($0.range, in: text)! }
            for (index, range) in starts.enumerated() {
                let end = index + 1 < starts.count ? starts[index + 1].lowerBound : text.endIndex
                found.append((file, String(text[range]), String(text[range.lowerBound..<end])))
            }
        }
        return found
    }

    @Test func suitesThatMakeMediaAreTaggedMedia() throws {
        let declarations = try Self.declarations()
        #expect(declarations.count > 100, "every test file read")
        for declaration in declarations where declaration.text.contains("@Test") {
            let text = declaration.text
            guard Self.makesMedia.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil else { continue }
            // An extension's suite is tagged where it is declared.
            let name = declaration.header.split(separator: " ").last.map(String.init) ?? ""
            let suiteHeader =
                declaration.header.hasPrefix("extension")
                ? declarations.first { !$0.header.hasPrefix("extension") && $0.header.hasSuffix(" \(name)") }?.header ?? "" : declaration.header
            let tagged = suiteHeader.contains(".tags(.media") || text.contains("@Test(.tags(.media")
            #expect(tagged, "\(declaration.file): \(declaration.header) makes media but is not tagged .media")
        }
    }

    @Test func tagsGoWithTheFastRunTrait() throws {
        let attribute = try NSRegularExpression(pattern: #"@(Suite|Test)\([^\n]*"#)
        var attributes = 0
        for declaration in try Self.declarations() {
            let text = declaration.text
            for match in attribute.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let line = String(text[Range(match.range, in: text)!])
                let tagged = line.contains(".tags(.media") || line.contains(".tags(.slow")
                #expect(tagged == line.contains(".notInFastRun"), "\(declaration.file): \(line)")
                attributes += tagged ? 1 : 0
            }
        }
        #expect(attributes > 20)
    }
}
