import Foundation

extension Programme {
    /// A caption of the programme as a caption file would have it: its times and text (the drama's with the speaker's
    /// name).
    package struct Caption: Sendable, Equatable {
        package var start: Double
        package var end: Double
        package var text: String
    }

    /// The captions of the lines that end by `seconds`, on time, with mistakes a captioner makes, by turns among the
    /// lines: every eighth from the second with a word added in the middle ("elephant", "umbrella" …), every eighth from
    /// the fourth with another programme's sentence (`others`) or the next line's text, every eighth from the seventh
    /// moved 1.5 s late or 2 s early. The others are right.
    package func captionsWithMistakes(upTo seconds: Double, others: [String]) -> [Caption] {
        let kept = lines.filter { $0.end <= seconds }
        var captions = kept.map { Caption(start: $0.start, end: $0.end, text: kind == .drama ? "\($0.speaker): \($0.text)" : $0.text) }
        for index in captions.indices {
            switch index % 8 {
            case 1:
                var words = captions[index].text.split(separator: " ").map(String.init)
                words.insert(["elephant", "umbrella", "strawberry", "volcano"][index / 8 % 4], at: words.count / 2)
                captions[index].text = words.joined(separator: " ")
            case 3 where index + 1 < kept.count:
                captions[index].text = index / 8 % 2 == 0 ? others[index % others.count] : kept[index + 1].text
            case 6:
                let shift = index / 8 % 2 == 0 ? 1.5 : -2.0
                captions[index].start = max(0, captions[index].start + shift)
                captions[index].end += shift
            default: break
            }
        }
        return captions
    }

    /// `captions` as a SubRip file.
    package static func subRip(_ captions: [Caption]) -> String {
        captions.enumerated().map { "\($0.offset + 1)\n\(stamp($0.element.start)) --> \(stamp($0.element.end))\n\($0.element.text)\n\n" }.joined()
    }
}
