import ArgumentParser
import Captions
import Checks
import Findings
import Foundation

/// `--fix OUT` or `--in-place [--backup SUFFIX]`, with `--snap`: where `sync` writes the corrected captions, and the
/// writing of them.
struct SyncFixOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write the corrected captions here (format from the extension, else the source's).", valueName: "out"), completion: .file())
    var fix: String?

    @Flag(
        help: ArgumentHelp(
            "With --fix or --in-place, also move each cue onto the start of its own speech (within 1 s, never past the cues around it), as a person retiming captions would."
        ))
    var snap = false

    @OptionGroup var rewrite: InPlaceOptions

    func validate() throws {
        if fix != nil, rewrite.inPlace { throw ValidationError("Give either --fix OUT or --in-place, not both.") }
        if snap, fix == nil, !rewrite.inPlace { throw ValidationError("--snap moves cues when fixing: give --fix OUT or --in-place too.") }
    }

    /// Whether corrected captions are written anywhere: `--fix OUT`, or the caption file itself with `--in-place`.
    var isRequested: Bool { fix != nil || rewrite.inPlace }

    /// A fix needs one caption source of `media`, not an input, and `--in-place` a caption file.
    func refuse(_ sources: [CaptionSource], of media: String) throws {
        let option = fix == nil ? "--in-place" : "--fix"
        guard sources.count == 1 else {
            let found = sources.isEmpty ? "none" : "\(sources.count): " + sources.map(\.label).joined(separator: ", ")
            throw CLIError("\(option) needs one caption source; \(media) has \(found); name one")
        }
        if let fix, let file = sources[0].file { try OutputStream.refuseInputs(fix, [file]) }
        if rewrite.inPlace, sources[0].file == nil {
            throw CLIError("--in-place rewrites a caption file; the captions of \(media) are \(sources[0].label): write them with --fix OUT")
        }
        // Refused before the audio is read: a format MediaLint reads but does not write.
        if rewrite.inPlace, let file = sources[0].file, let format = CaptionFormat(pathExtension: (file as NSString).pathExtension), !format.isWritable {
            throw CLIError(
                "\(file): \(format.displayName) is read, not written: --in-place cannot rewrite it (write the fix to another format with --fix OUT.srt)")
        }
    }

    /// Writes the corrected captions to `path` (`--fix`'s, else the caption file for `--in-place`), never over `input`
    /// unless in place; returns the result with what the correction resolves marked as fixed, or nil when nothing could
    /// be written.
    func write(_ outcome: SyncCheck.Outcome, document: CaptionDocument, to path: String, input: String) throws -> CheckResult? {
        guard let correction = outcome.correction(of: document, snap: snap) else {
            Console.error("\(path): not written: the timing could not be verified")
            return nil
        }
        if !correction.changed, rewrite.inPlace {
            Console.note("\(path): the timing is within the tolerance; left as it is")
            return outcome.result
        }
        let format = rewrite.inPlace ? document.format : CaptionFormat(pathExtension: (path as NSString).pathExtension) ?? document.format
        let written =
            rewrite.inPlace
            ? try CaptionOutput.rewrite(path, original: document, edited: correction.document, inPlace: rewrite)
            : try CaptionOutput.write(correction.document, as: format, to: path, input: input, original: document)
        // Said once the file is written: a fix that could not be written moved nothing.
        Console.note(correction.changed ? "\(path): \(correction.summary)" : "\(path): the timing is within the tolerance; written unchanged")
        Diagnostics.print(correction.diagnostics + written, file: path)
        return correction.result(writtenTo: path)
    }
}
