import ArgumentParser
import Checks
import Findings
import FlashDetection
import Foundation
import Library
import MediaIO
import Reports

/// `medialint flash MEDIA...`: seizure-risk flashing.
struct FlashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flash",
        abstract: "Check video for seizure-risk flashing (general and red flashes, 3–50 a second).",
        discussion: """
            Profiles: wcag (default; WCAG 2.3.1: more than 3 flashes in any second over 25% of any 10° visual \
            field), wcag-aaa (2.3.2: any flash of any size), bt1702 (ITU-R BT.1702/Ofcom: 25% of the screen), \
            kwcag (Korean guideline 3.3: 3 to 50 flashes a second, 10% of the screen). Every threshold can be \
            changed with the options below or in the 'flash' section of .medialint.yml. The report says the \
            most flashes a second the video can show (half its frame rate). Exit status: 0 pass, 1 flashing \
            found or a file that cannot be read, 2 a usage error or a file that does not exist (--strict: \
            warnings fail too).
            """
    )

    @Argument(help: ArgumentHelp("Video files.", valueName: "media"), completion: .file())
    var media: [String]

    @Option(
        help: ArgumentHelp("Thresholds to start from: \(FlashConfiguration.profileNames.joined(separator: ", ")).", valueName: "profile"),
        completion: .list(FlashConfiguration.profileNames))
    var profile: String?

    @OptionGroup var formatChoice: CheckFormatOptions

    /// `--format`, else what `-o`'s extension says, else text.
    var format: CheckFormat { formatChoice.format(writingTo: output) }

    @Option(
        help: ArgumentHelp("Write each frame's measurements as CSV (time, mean luminance, flashing area, transitions in the last second).", valueName: "file"),
        completion: .file())
    var framesCSV: String?

    @Option(help: ArgumentHelp("The same per-frame measurements as JSON.", valueName: "file"), completion: .file())
    var framesJSON: String?

    @Option(help: ArgumentHelp("The video stream to check (default: the main one).", valueName: "index"))
    var stream: Int?

    @Flag(
        help: ArgumentHelp(
            "Decode exactly as a player does. By default the decoder's deblocking filter is left out: faster, with the same verdicts and times."
        ))
    var exactDecode = false

    @OptionGroup var settings: ConfigOptions
    @OptionGroup(title: "Thresholds") var thresholds: FlashThresholdOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var verdicts: VerdictOptions
    @OptionGroup var playlists: PlaylistOptions

    func validate() throws {
        if let profile, FlashConfiguration.profile(profile) == nil {
            throw ValidationError("Unknown profile '\(profile)'; choose one of \(FlashConfiguration.profileNames.joined(separator: ", ")).")
        }
        if (framesCSV != nil || framesJSON != nil) && media.count > 1 {
            throw ValidationError("--frames-csv and --frames-json take one media file.")
        }
    }

    func run() throws {
        playlists.apply(to: media)
        try output.refuse(inputs: media)
        for table in [framesCSV, framesJSON].compactMap({ $0 }) { try OutputStream.refuseInputs(table, media) }
        // Each file's settings (the .medialint.yml files from its folder up), all read before any work.
        let discovery = settings.discovery()
        let checks = try media.map { path in
            let config = try discovery.settings(for: path)
            return FlashCheck(
                configuration: try thresholds.configuration(profile: profile, config: config), streamIndex: stream,
                exactDecode: try exactDecode || FlashSettings.exactDecode(config.section("flash")))
        }
        var results: [CheckResult] = []
        for (path, check) in zip(media, checks) {
            let frames = try FrameTable(csv: framesCSV, json: framesJSON)
            do {
                let progress = ProgressLine(label: "flash \(path)")
                let clock = ContinuousClock(), started = clock.now
                var result = try check.run(path: path, frames: frames?.add) { progress.update(done: $0, total: $1, frames: $2) }
                result.seconds = (clock.now - started).inSeconds
                progress.finish()
                try frames?.commit()
                results.append(result)
            } catch let error as MediaError {
                if error.kind == .noSuchStream, stream != nil { throw CLIError(error.description) }
                Console.error(error.description)
                results.append(CheckResult.unreadable(file: path, check: .flash, reason: error.reason))
            }
        }
        try output.finish(settings.applyRules(to: results), format: format, verdicts: verdicts)
    }
}

extension FlashConfiguration.AreaBasis: ExpressibleByArgument {}
