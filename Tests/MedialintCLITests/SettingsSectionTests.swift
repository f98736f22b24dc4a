import Testing

@testable import medialint

/// The settings sections are typed: each reads its own keys, `~` means none where a number can be dropped, and a value
/// of the wrong kind names the setting and where it came from.
@Suite struct SettingsSectionTests {
    static func config(_ assignments: String...) throws -> ConfigFile {
        var config = ConfigFile()
        for assignment in assignments { try config.set(assignment) }
        return config
    }

    @Test func eachSectionTakesTheKeysOfItsType() {
        #expect(ConfigFile.known["sync"] == ["tolerance", "fail-tolerance", "cue-tolerance"])
        #expect(ConfigFile.known["flash"]?.count == 15 && ConfigFile.known["flash"]?.contains("darker-state") == true)
        #expect(ConfigFile.known["lint"]?.contains("max-chars-per-line") == true && ConfigFile.known.count == 5)
        #expect(ConfigFile.known["accuracy"] == ["enabled", "language"])
    }

    @Test func noneDropsANumberAndAValueSetsIt() throws {
        let lint = try LintSettings(try Self.config("lint.max-cps=~", "lint.max-lines=3", "lint.disable=lint.min-gap").section("lint"), profile: nil)
        #expect(lint.rules.maxCharactersPerSecond == nil && lint.rules.maxLines == 3 && lint.disabled == ["lint.min-gap"])
        let netflix = try LintSettings(try Self.config().section("lint"), profile: nil)
        #expect(netflix.rules.maxCharactersPerSecond == 20 && netflix.rules.maxLines == 2)
        let flash = try FlashSettings.configuration(try Self.config("flash.darker-state=~", "flash.area=0.1").section("flash"), profile: "bt1702")
        #expect(flash.darkerStateLimit == nil && flash.areaFraction == 0.1)
        let sync = try SyncSettings.check(try Self.config("sync.tolerance=0.2").section("sync"))
        #expect(sync.tolerance == 0.2 && sync.failTolerance == 0.25 && sync.cueTolerance == 0.3)
    }

    @Test func aValueOfTheWrongKindNamesItsSetting() throws {
        func message(_ body: () throws -> Void) -> String? {
            do { try body() } catch let error as CLIError { return error.message } catch { return "\(error)" }
            return nil
        }
        #expect(message { _ = try SyncSettings.check(try Self.config("sync.tolerance=soon").section("sync")) } == "--set: 'sync.tolerance' must be a number")
        #expect(
            message { _ = try FlashSettings.configuration(try Self.config("flash.block-size=1.5").section("flash"), profile: nil) }
                == "--set: 'flash.block-size' must be a whole number")
        #expect(
            message { _ = try FlashSettings.exactDecode(try Self.config("flash.exact-decode=3").section("flash")) }
                == "--set: 'flash.exact-decode' must be true or false")
        #expect(
            message { _ = try LintSettings(try Self.config("lint.disable=[1, 2]").section("lint"), profile: nil) }
                == "--set: 'lint.disable' must be a list of text")
        #expect(message { _ = try LintSettings(try Self.config("lint.profile=[a]").section("lint"), profile: nil) } == "--set: 'lint.profile' must be text")
        // `~` is no number where none cannot be meant.
        #expect(
            message { _ = try FlashSettings.configuration(try Self.config("flash.area=~").section("flash"), profile: nil) }
                == "--set: 'flash.area' must be a number")
    }
}
