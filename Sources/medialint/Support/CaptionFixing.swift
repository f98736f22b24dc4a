import CaptionQuality
import Captions

/// `lint --fix` and `check --fix`: a caption file rewritten with what `CaptionFixer` fixes, atomically, changing only
/// that (`CaptionOutput.rewrite`); each change said on standard error.
enum CaptionFixing {
    /// The file at `path` (read as `document`) fixed for `linter`'s profile and read again; `document` as it is when
    /// nothing needs fixing. `backup`: a suffix to keep the original under.
    static func fixInPlace(_ path: String, _ document: CaptionDocument, linter: CaptionLinter, backup: String?) throws -> CaptionDocument {
        let (fixed, changes) = CaptionFixer(profile: linter.profile, framesPerSecond: linter.framesPerSecond).fix(document)
        for change in changes where !change.applied {
            Console.note("\(path): left cue \(change.cue) as it is: \(change.description) [\(change.rule)]")
        }
        guard changes.contains(where: \.applied) else { return document }
        guard document.format.isWritable else {
            throw CLIError("\(path): \(document.format.displayName) is read, not written: --fix cannot rewrite it (convert it first)")
        }
        var inPlace = InPlaceOptions()
        inPlace.inPlace = true
        inPlace.backup = backup
        _ = try CaptionOutput.rewrite(path, original: document, edited: fixed, inPlace: inPlace)
        for change in changes where change.applied { Console.note("\(path): fixed cue \(change.cue): \(change.description) [\(change.rule)]") }
        do throws(CaptionError) { return try CaptionFile.read(path, format: document.format) } catch { throw CLIError("\(path): \(error.message)") }
    }
}
