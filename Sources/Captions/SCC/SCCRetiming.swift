/// SCC's edits made in the file's own lines: a caption's time is when one of its codes is sent (a pop-on caption shows at
/// its End Of Caption, goes at the next Erase or End Of Caption), so moving it moves the timecode of the line that sends
/// that code, by whole frames; the codes themselves, the other channel's and every other line stay as they were. When
/// every caption moved (a shift, a sync), every line moves with them (`TimeMoves`).
///
/// Refused, with the reason: an edit of a caption's text (it is its codes), a time no line sends (the end of the file),
/// two edits that would move one line two ways (a caption ended where the next begins: one code does both), and a
/// result that would not read back as edited (to the frame) with the other channel's captions unchanged.
enum SCCRetiming {
    /// A line of timecode and byte pairs.
    struct Line {
        /// Where the timecode is in the file.
        var timecode: Range<Int>
        /// The frame the timecode names, and the frame its first pair is sent (later when the line before is still
        /// being sent).
        var frame: Int
        var sent: Int
        var words: Int
        var dropFrame: Bool
    }

    static func apply(to bytes: [UInt8], original: CaptionDocument, edited: CaptionDocument) -> Result<[UInt8], CaptionPatch.Refusal> {
        if let changed = zip(original.cues, edited.cues).first(where: { $0.0.text != $0.1.text }) {
            return .failure(CaptionPatch.Refusal("the text of an SCC caption is its codes, not rewritten (caption at \(changed.0.start))"))
        }
        let changed = zip(original.cues, edited.cues).filter { $0.0.start != $0.1.start || $0.0.end != $0.1.end }
        guard !changed.isEmpty else { return .success(bytes) }
        let lines = Self.lines(bytes)
        func frame(_ time: CaptionTime) -> Int {
            Int((Double(time.milliseconds) * Double(SMPTETimecode.rate.frames) / Double(SMPTETimecode.rate.per) / 1000).rounded())
        }
        func milliseconds(_ frame: Int) -> Int64 {
            Int64((Double(frame) * Double(SMPTETimecode.rate.per) * 1000 / Double(SMPTETimecode.rate.frames)).rounded())
        }
        /// The line that sends the pair of `frame`.
        func line(sending frame: Int) -> Int? {
            var low = 0, high = lines.count
            while low < high {
                let middle = (low + high) / 2
                if lines[middle].sent <= frame { low = middle + 1 } else { high = middle }
            }
            guard low > 0, frame < lines[low - 1].sent + lines[low - 1].words else { return nil }
            return low - 1
        }
        // Every caption moved: every line moves with them.
        var moves: TimeMoves?
        if changed.count == original.cues.count, case .success(let found) = TimeMoves.of(original.cues, edited.cues) { moves = found }
        var shifts: [Int: Int] = [:]
        for (before, after) in changed {
            for (old, new, what) in [(before.start, after.start, "start"), (before.end, after.end, "end")] where frame(old) != frame(new) {
                guard let index = line(sending: frame(old)) else {
                    if moves != nil { continue }  // the file's end moves with its last line
                    return .failure(
                        CaptionPatch.Refusal("no line sends the \(what) of the caption at \(before.start) (the end of the file): not moved in place"))
                }
                let shift = frame(new) - frame(old)
                if let known = shifts[index], known != shift {
                    return .failure(
                        CaptionPatch.Refusal(
                            "one code sets two times of the captions at \(before.start) (an end where the next begins): they cannot move apart in place"))
                }
                shifts[index] = shift
            }
        }
        if let moves {
            for index in lines.indices where shifts[index] == nil {
                shifts[index] = frame(CaptionTime(milliseconds: moves.moved(milliseconds(lines[index].sent)))) - lines[index].sent
            }
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 64)
        var copied = 0
        for (index, line) in lines.enumerated() {
            guard let shift = shifts[index], shift != 0 else { continue }
            guard line.frame + shift >= 0 else {
                return .failure(
                    CaptionPatch.Refusal("the line with timecode \(SMPTETimecode(frame: line.frame, dropFrame: line.dropFrame)) would move before 00:00:00:00"))
            }
            var timecode = SMPTETimecode(frame: line.frame + shift, dropFrame: line.dropFrame).description
            // The separator the file wrote before the frames (`.` for drop-frame in some files).
            if line.dropFrame, bytes[line.timecode.upperBound - 3] == UInt8(ascii: ".") { timecode = timecode.replacingOccurrences(of: ";", with: ".") }
            output.append(contentsOf: bytes[copied..<line.timecode.lowerBound])
            output.append(contentsOf: timecode.utf8)
            copied = line.timecode.upperBound
        }
        output.append(contentsOf: bytes[copied...])
        // Read back: the edited captions, to the frame; the other channel's captions as they were, or moved as the
        // lines were when every line moved.
        let tolerance = milliseconds(1) / 2 + 1
        func close(_ a: [Cue], _ b: [Cue]) -> Bool {
            a.count == b.count
                && zip(a, b).allSatisfy { new, expected in
                    new.text == expected.text && abs(new.start.milliseconds - expected.start.milliseconds) <= tolerance
                        && abs(new.end.milliseconds - expected.end.milliseconds) <= tolerance
                }
        }
        guard let reread = try? SCCReader().read(output), let before = try? SCCReader().read(bytes), close(reread.cues, edited.cues),
            before.channelsWithCaptions.allSatisfy({ channel in
                channel == before.channel
                    || (try? (SCCReader(channel: channel).read(output).cues.map(\.text), SCCReader(channel: channel).read(bytes).cues.map(\.text)))
                        .map { $0.0 == $0.1 } == true
            })
        else { return .failure(CaptionPatch.Refusal("the retimed file would not read back as edited")) }
        return .success(output)
    }

    /// The timecode lines of an SCC file, as `SCCReader` sends them.
    static func lines(_ bytes: [UInt8]) -> [Line] {
        var lines: [Line] = []
        var start = 0
        var nextFrame = 0
        let count = bytes.count
        while start < count {
            var end = start
            while end < count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            let lineStart = start
            start = end < count && bytes[end] == 0x0D && end + 1 < count && bytes[end + 1] == 0x0A ? end + 2 : end + 1
            var fields: [Range<Int>] = []
            var i = lineStart
            while i < end {
                while i < end, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
                let fieldStart = i
                while i < end, bytes[i] != 0x20, bytes[i] != 0x09 { i += 1 }
                if i > fieldStart { fields.append(fieldStart..<i) }
            }
            guard let first = fields.first, let timecode = SMPTETimecode(parsing: bytes[first]) else { continue }
            let sent = max(timecode.frame, nextFrame)
            lines.append(Line(timecode: first, frame: timecode.frame, sent: sent, words: fields.count - 1, dropFrame: timecode.dropFrame))
            nextFrame = sent + fields.count - 1
        }
        return lines
    }
}
