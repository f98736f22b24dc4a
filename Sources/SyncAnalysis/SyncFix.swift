import Captions

/// How `sync --fix` retimes a caption document: each part of it (split where the offset changes) by its own
/// edit, and, when asked, each dialogue cue moved onto the speech onset it belongs to (`snap`), the way a person
/// retiming captions would — never past the cue before or after it.
public struct SyncFix: Sendable {
    /// The parts in caption time: each edit applies to the cues that start at or after `from` (the first part's
    /// `from` is −∞), until the next part's.
    public var parts: [(from: Double, edit: TimingEdit)]
    /// Document cue index → the media time its start moves to when snapping.
    public var snaps: [Int: Double]

    public init(parts: [(from: Double, edit: TimingEdit)], snaps: [Int: Double] = [:]) {
        self.parts = parts
        self.snaps = snaps
    }

    /// The fix a report describes: each of its parts from the caption time it starts at (`SyncPart.from`), and
    /// its cue onsets as snaps; `dialogue[i]` is the document index of the report's dialogue cue i.
    public init(_ report: SyncReport, dialogue: [Int]) {
        var snaps: [Int: Double] = [:]
        for (index, target) in report.onsets.enumerated() {
            if let target { snaps[dialogue[index]] = target.onset }
        }
        self.init(parts: report.parts.map { ($0.from, TimingEdit(offset: $0.shift, scale: report.scale)) }, snaps: snaps)
    }

    /// The first part's edit: the whole fix when the offset holds throughout.
    public var main: TimingEdit { parts.first?.edit ?? TimingEdit() }

    /// The edit of the part a caption time falls in.
    public func edit(at time: Double) -> TimingEdit { parts.last { $0.from <= time }?.edit ?? main }

    /// Retimes `document`; with `snap`, also moves each dialogue cue with a known onset onto it (start and end
    /// together, the end kept clear of the next cue's start). Returns what had to be clamped, and how many cues
    /// were moved onto their speech.
    @discardableResult
    public func apply(to document: inout CaptionDocument, snap: Bool = false) -> (diagnostics: [CaptionDiagnostic], snapped: Int) {
        var diagnostics: [CaptionDiagnostic]
        if parts.count <= 1 {
            diagnostics = main.apply(to: &document)
        } else {
            var clamped = 0, first: Int?
            for index in document.cues.indices where edit(at: document.cues[index].start.seconds).apply(to: &document, cue: index) {
                clamped += 1
                first = first ?? index
            }
            diagnostics = TimingEdit.clampedDiagnostics(clamped, first: first)
        }
        guard snap, !snaps.isEmpty else { return (diagnostics, 0) }
        var snapped = 0
        for index in document.cues.indices {
            guard let target = snaps[index] else { continue }
            let start = document.cues[index].start.seconds
            // Never past the cue before or after, in the document's order.
            let earliest = index > 0 ? document.cues[index - 1].start.seconds : 0
            let latest = index + 1 < document.cues.count ? document.cues[index + 1].start.seconds : .infinity
            guard target >= earliest, target < latest, abs(target - start) >= 0.001 else { continue }
            _ = TimingEdit(offset: target - start).apply(to: &document, cue: index)
            snapped += 1
            if index + 1 < document.cues.count, document.cues[index].end > document.cues[index + 1].start,
                document.cues[index + 1].start > document.cues[index].start
            {
                document.cues[index].end = document.cues[index + 1].start
            }
        }
        return (diagnostics, snapped)
    }

    /// What the fix does, for a note: "times moved by +1.500 s", "… after stretching by 1.001000", or part by part.
    public var summary: String {
        func moved(_ edit: TimingEdit) -> String { String(format: "%+.3f s", edit.offset) }
        let stretch = main.scale == 1 ? "" : String(format: " after stretching by %.6f", main.scale)
        guard parts.count > 1 else { return "times moved by \(moved(main))\(stretch)" }
        let later = parts.dropFirst().map { "\(moved($0.edit)) from \(CaptionTime(seconds: max(0, $0.from)).webVTTString)" }
        return "times moved part by part\(stretch): \(moved(main)), then " + later.joined(separator: ", then ")
    }
}
