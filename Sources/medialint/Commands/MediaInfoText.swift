import Basics
import MediaIO
import Reports

/// The text form of `medialint probe`: a header line for the file, then one line per stream.
struct MediaInfoText {
    let style: TextStyle

    func render(_ info: MediaInfo) -> String {
        var header = [info.formatLongName.map { "\($0) (\(info.format))" } ?? info.format]
        if let duration = info.duration { header.append(seconds(duration)) }
        header.append(bytes(info.size))
        if let bitRate = info.bitRate { header.append("\(bitRate / 1000) kb/s") }
        var lines = [style.bold(info.file), "  " + header.joined(separator: " · ")]
        if info.streams.isEmpty { lines.append("  no streams") }
        for stream in info.streams { lines.append("  " + line(for: stream)) }
        return lines.joined(separator: "\n") + "\n"
    }

    private func line(for stream: StreamInfo) -> String {
        var codec = stream.codec
        if codec == "unknown", let tag = stream.codecTag { codec += " codec (tag '\(tag)')" }
        if let profile = stream.profile { codec += " (\(profile))" }
        var parts = [codec]
        if let video = stream.video {
            parts.append("\(video.width)x\(video.height)")
            if let fps = video.fps { parts.append("\(number(fps)) fps") }
            if let pixelFormat = video.pixelFormat {
                parts.append(pixelFormat + (video.bitDepth.map { " (\($0)-bit)" } ?? ""))
            }
            let color = [video.color.matrix, video.color.range, video.color.transfer].compactMap { $0 }
            if !color.isEmpty { parts.append(color.joined(separator: "/")) }
            if video.color.isHDR { parts.append("HDR") }
            if let rotation = video.rotation, rotation != 0 { parts.append("rotated \(number(rotation))°") }
            if video.closedCaptions == true { parts.append("closed captions (CEA-608)") }
        }
        if let audio = stream.audio {
            parts.append("\(audio.sampleRate) Hz")
            parts.append(audio.channelLayout ?? "\(audio.channels) channels")
        }
        if let subtitle = stream.subtitle { parts.append(subtitle.isText ? "text" : "bitmap") }
        if let language = stream.language { parts.append(language) }
        if let title = stream.title { parts.append("\"\(title)\"") }

        var timing: [String] = []
        if let duration = stream.duration {
            timing.append(seconds(duration) + (stream.durationSource == .packets ? " (measured)" : ""))
        }
        if let count = stream.frameCount {
            let unit =
                switch stream.kind {
                case .video: "frame";
                case .subtitle: "cue";
                default: "packet"
                }
            timing.append("\(count) \(unit)\(count == 1 ? "" : "s")" + (stream.frameCountSource == .packets ? " (counted)" : ""))
        }
        var text =
            "#\(stream.index) " + style.cyan(stream.kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))
            + parts.joined(separator: ", ")
        if !timing.isEmpty { text += style.dim(" — " + timing.joined(separator: ", ")) }
        if !stream.dispositions.isEmpty { text += " [" + stream.dispositions.joined(separator: ", ") + "]" }
        return text
    }

    private func seconds(_ value: Double) -> String { String(format3(value)) + " s" }

    private func format3(_ value: Double) -> String {
        let thousandths = Int64(saturating: (value * 1000).rounded())
        let sign = thousandths < 0 ? "-" : ""
        let magnitude = abs(thousandths)
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    private func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int64(saturating: value)) : String((value * 1000).rounded() / 1000)
    }

    private func bytes(_ count: Int64) -> String {
        if count < 1024 { return "\(count) B" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return "\((value * 10).rounded() / 10) \(units[unit])"
    }
}
