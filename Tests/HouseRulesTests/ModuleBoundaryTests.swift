import Foundation
import Testing

/// The module graph of `docs/architecture.md` holds: every module imports only what its row of the module table
/// allows, and every module in `Sources/` has a row.
@Suite struct ModuleBoundaryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Modules of the platform and the toolchain any module may import.
    static let standard: Set<String> = ["Foundation", "FoundationEssentials", "Dispatch", "Glibc", "Darwin", "Synchronization", "Testing"]

    /// The table: module → the modules it may import ("any module above" is every module of earlier rows).
    static func allowed() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let table = try #require(
            text.components(separatedBy: "<!-- module-table -->").dropFirst().first?
                .components(separatedBy: "<!-- /module-table -->").first)
        var allowed: [String: Set<String>] = [:]
        var earlier: [String] = []
        for line in table.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let module = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            // A note in parentheses says why; it names no module.
            let allowedCell = cells[2].replacingOccurrences(of: #"\([^)]*\)"#, with: "", options: .regularExpression)
            var imports = Set(
                allowedCell.components(separatedBy: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
                    .filter { !$0.isEmpty && $0 != "—" && !$0.contains(" ") })
            if allowedCell.contains("any module above") { imports.formUnion(earlier) }
            allowed[module] = imports
            earlier.append(module)
        }
        return allowed
    }

    /// Each module's source folder and what its files import (`tests`: each test target's, in `Tests/`).
    static func imports(tests: Bool = false) throws -> [String: Set<String>] {
        let top = tests ? "Tests" : "Sources"
        var folders: [(String, URL)] = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(top).path)
            .filter { !$0.hasPrefix(".") }.map { ($0, root.appendingPathComponent("\(top)/\($0)")) }
        if !tests { folders.append(("luma-timeline", root.appendingPathComponent("Examples/luma-timeline"))) }
        let pattern = try NSRegularExpression(
            pattern: #"^\s*(?:@testable\s+|@_exported\s+|@_spi\(\w+\)\s+)?import\s+(?:(?:struct|class|enum|func|protocol)\s+)?([A-Za-z_][A-Za-z0-9_]*)"#,
            options: .anchorsMatchLines)
        var found: [String: Set<String>] = [:]
        for (module, folder) in folders {
            var modules = Set<String>()
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    modules.insert(String(text[Range(match.range(at: 1), in: text)!]))
                }
            }
            found[module] = modules
        }
        return found
    }

    @Test func modulesImportOnlyWhatTheTableAllows() throws {
        let allowed = try Self.allowed()
        #expect(allowed["Checks"]?.contains("MediaIO") == true && allowed["medialint"]?.contains("Library") == true)
        for (module, imports) in try Self.imports() {
            guard let permitted = allowed[module] else {
                Issue.record("Sources/\(module) has no row in docs/architecture.md's module table")
                continue
            }
            let breaking = imports.subtracting(permitted).subtracting(Self.standard).subtracting([module]).sorted()
            #expect(breaking.isEmpty, "\(module) imports \(breaking), which its row does not allow")
        }
    }

    /// A module's tests (`Tests/<Module>Tests`) import that module, what its row allows it, and the test helpers — so
    /// an analysis module's tests use nothing above it; `MedialintCLITests` may use any module (as the command line does).
    @Test func testTargetsImportTheirModuleAndWhatItMayImport() throws {
        let allowed = try Self.allowed()
        // The test helpers, and Foundation's XML parser (tests read the XML that reports and transcripts write).
        let helpers: Set<String> = ["TestSupport", "TestTraits", "FoundationXML"]
        let found = try Self.imports(tests: true)
        #expect(found["FlashDetectionTests"] != nil && found["ChecksTests"]?.contains("Checks") == true)
        for (target, imports) in found {
            guard target != "HouseRulesTests" else {
                #expect(imports.subtracting(Self.standard).isEmpty, "the house rules read files, they import no module: \(imports)")
                continue
            }
            let module = target == "MedialintCLITests" ? "medialint" : String(target.dropLast("Tests".count))
            guard let permitted = allowed[module] else {
                Issue.record("Tests/\(target) tests no module of docs/architecture.md's table")
                continue
            }
            let breaking = imports.subtracting(permitted).subtracting(Self.standard).subtracting(helpers).subtracting([module]).sorted()
            #expect(breaking.isEmpty, "\(target) imports \(breaking), which \(module)'s row does not allow")
        }
        for module in ["FlashDetection", "SyncAnalysis", "CaptionQuality", "Autoplay", "Captions", "Findings", "Transcripts", "Streaming"] {
            let above: Set<String> = ["Checks", "Library", "Reports", "MediaIO", "medialint"]
            #expect(found["\(module)Tests"]?.isDisjoint(with: above) == true, "\(module)Tests imports a layer above it: \(found["\(module)Tests"] ?? [])")
        }
    }

    /// Each target's dependencies in `Package.swift`, by target name (`.product(name:)` as the product's name).
    static func declaredDependencies() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let targets = text.components(separatedBy: "targets: [").dropFirst(2).joined(separator: "targets: [")
        let start = try NSRegularExpression(pattern: #"\.(target|executableTarget|testTarget|systemLibrary)\(\s*name: "([\w-]+)""#)
        let name = try NSRegularExpression(pattern: #""(\w+)""#)
        let matches = start.matches(in: targets, range: NSRange(targets.startIndex..., in: targets))
        var found: [String: Set<String>] = [:]
        for (index, match) in matches.enumerated() {
            let end = index + 1 < matches.count ? matches[index + 1].range.location : (targets as NSString).length
            let body = (targets as NSString).substring(with: NSRange(location: match.range.location, length: end - match.range.location))
            let target = String(targets[Range(match.range(at: 2), in: targets)!])
            guard let list = body.components(separatedBy: "dependencies: [").dropFirst().first?.components(separatedBy: "]").first else {
                found[target] = []
                continue
            }
            // Quoted names, a product's package name aside.
            let cleaned = list.replacingOccurrences(of: #"package: "[^"]*""#, with: "", options: .regularExpression)
            found[target] = Set(
                name.matches(in: cleaned, range: NSRange(cleaned.startIndex..., in: cleaned)).map { (cleaned as NSString).substring(with: $0.range(at: 1)) })
        }
        return found
    }

    /// `Package.swift` says what the table says: every module's declared dependencies are what its files import (no
    /// more, no fewer), and within its row; every module of the table is in the graph.
    @Test func packageManifestAndGraphMatchTheTable() throws {
        let allowed = try Self.allowed()
        let declared = try Self.declaredDependencies()
        let imports = try Self.imports()
        #expect(declared["Checks"]?.contains("Streaming") == true && declared["Basics"] == [])
        for (module, permitted) in allowed where !["CFFmpeg", "CPocketSphinx"].contains(module) {
            guard let dependencies = declared[module] else {
                Issue.record("\(module) is in the table but not a target of Package.swift")
                continue
            }
            #expect(
                dependencies.isSubset(of: permitted),
                "\(module) depends on \(dependencies.subtracting(permitted).sorted()) in Package.swift, which its row does not allow")
            let used = (imports[module] ?? []).subtracting(Self.standard).subtracting(["FoundationXML", module])
            #expect(used == dependencies, "\(module): Package.swift declares \(dependencies.sorted()), its files import \(used.sorted())")
        }
        // The graph: layers of modules, each importing only from layers below it.
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let graph = try #require(text.components(separatedBy: "```").dropFirst().first)
        var layer: [String: Int] = [:]
        for line in graph.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard let number = words.first.flatMap({ Int($0) }) else { continue }
            for module in words.dropFirst() { layer[module] = number }
        }
        let layered = Set(allowed.keys).subtracting(["TestSupport", "TestTraits", "MediaLintBench", "CaptionsFuzzer", "MediaMutationSweep", "luma-timeline"])
        #expect(Set(layer.keys) == layered, "the graph's modules differ from the table's: \(Set(layer.keys).symmetricDifference(layered).sorted())")
        for module in layered {
            for used in (declared[module] ?? []) where layer[used] != nil {
                #expect(layer[used]! < layer[module] ?? 0, "\(module) (layer \(layer[module] ?? -1)) uses \(used) (layer \(layer[used]!)): not a layer below")
            }
        }
    }

    /// FFmpeg is touched in MediaIO alone, PocketSphinx in SpeechAlignment alone, and no analysis module reaches up to
    /// the checks or the library.
    @Test func theRulesThatMatterMostHold() throws {
        let imports = try Self.imports()
        for (module, modules) in imports where module != "MediaIO" {
            #expect(!modules.contains("CFFmpeg"), "\(module) imports CFFmpeg")
        }
        for (module, modules) in imports where module != "SpeechAlignment" {
            #expect(!modules.contains("CPocketSphinx"), "\(module) imports CPocketSphinx")
        }
        for module in ["FlashDetection", "SyncAnalysis", "CaptionQuality", "Autoplay", "Captions", "Findings", "Transcripts"] {
            let above: Set<String> = ["Checks", "Library", "Reports", "MediaIO", "medialint"]
            #expect(imports[module]?.isDisjoint(with: above) == true, "\(module) imports a layer above it: \(imports[module] ?? [])")
        }
    }

    /// Work in slices on all cores goes through `ParallelSlices`; the library's file queue is the one other user of
    /// `concurrentPerform` (workers taking files, not slices).
    @Test func parallelSlicesAreCutInOnePlace() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        var users: [String] = []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            if text.contains("concurrentPerform(") { users.append(file) }
        }
        #expect(users.sorted() == ["Basics/ParallelSlices.swift", "Library/LibraryChecker.swift"])
    }
}
