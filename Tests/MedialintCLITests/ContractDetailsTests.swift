import Foundation
import TestSupport
import Testing

/// Small promises of the command line that users met broken: every command reads the settings alike, `-o` never
/// writes text under a name that promises another format, a folder made for the results store is said, and the help
/// and rule texts say what the commands do.
@Suite struct ContractDetailsTests {
    /// A setting `check` refuses, every command refuses, with the same message.
    @Test func everyCommandRefusesTheSameSettings() throws {
        var messages: Set<String> = []
        for command in [["check", "Media/speech.srt", "--no-store"], ["lint", "Media/speech.srt"]] {
            let run = try Medialint.run(command + ["--set", "sync.tolerance=-5"])
            #expect(run.status == 2, "\(command)")
            messages.insert(run.stderr)
        }
        #expect(messages.count == 1 && messages.first?.contains("sync tolerances must be positive") == true)
        let flash = try Medialint.run(["lint", "Media/speech.srt", "--set", "flash.area=7"])
        #expect(flash.status == 2, "lint refuses a flash setting check refuses: \(flash.stderr)")
    }

    @Test func outputNamesMustMatchTheFormat() throws {
        let directory = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let probe = try Medialint.run(["probe", Medialint.media("speech.mp4"), "-o", "info.html"], in: directory)
        #expect(probe.status == 2)
        #expect(probe.stderr == "medialint: error: -o info.html: probe writes text or JSON, not HTML; give --format to write one of those to that file\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("info.html").path))
        #expect(try Medialint.run(["cues", Medialint.media("speech.srt"), "-o", "cues.sarif"], in: directory).status == 2)
        #expect(try Medialint.run(["rules", "-o", "rules.xml"], in: directory).status == 2)
        #expect(try Medialint.run(["transcript", Medialint.media("speech.srt"), "-o", "t.md"], in: directory).status == 0)
        #expect(try Medialint.run(["probe", Medialint.media("speech.mp4"), "-o", "info.html", "--format", "text"], in: directory).status == 0)
        // A folder that does not exist: -o refuses it, --db makes it and says so.
        let missing = try Medialint.run(["lint", Medialint.media("speech.srt"), "-o", "no/such/r.sarif"], in: directory)
        #expect(missing.status == 2 && missing.stderr.contains("no such directory no/such"))
        let store = try Medialint.run(["check", Medialint.media("speech.srt"), "--db", "made/here/r.sqlite"], in: directory)
        #expect(store.stderr.contains("made/here/r.sqlite: the folder made/here did not exist; it was made for the results store"))
    }

    @Test func helpAndRulesSayWhatCommandsDo() throws {
        #expect(try Medialint.run(["help", "cues"]).stdout.contains("SAMI"))
        let check = try Medialint.run(["help", "check"]).stdout
        #expect(check.contains("HLS packages") && check.contains("--fix") && check.contains("130"))
        let unreadable = try Medialint.run(["rules", "media.unreadable"]).stdout
        #expect(unreadable.contains("exit status 1") && !unreadable.contains("(exit status 2)"))
        #expect(try Medialint.run(["rules", "captions.parse"]).stdout.contains("SAMI, ASS/SSA, SBV or EBU STL"))
    }
}
