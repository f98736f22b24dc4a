import FlashDetection
import Foundation

/// The per-frame measurements of one file, written as CSV and/or JSON (each file atomically, when complete).
final class FrameTable {
    private let csv: StreamingFile?
    private let json: StreamingFile?
    private var first = true

    init?(csv: String?, json: String?) throws {
        guard csv != nil || json != nil else { return nil }
        self.csv = try csv.map { try StreamingFile(path: $0) }
        self.json = try json.map { try StreamingFile(path: $0) }
        self.csv?.write("time,mean_luminance,flashing_area_frame,flashing_area_field,transitions_last_second,red_transitions_last_second\n")
        self.json?.write("[")
    }

    func add(_ frame: FrameMeasurement) {
        csv?.write(
            String(
                format: "%.6f,%.5f,%.4f,%.4f,%d,%d\n", frame.time, frame.meanLuminance, frame.flashingFrameArea,
                frame.flashingFieldArea, frame.transitionsInLastSecond, frame.redTransitionsInLastSecond))
        json?.write(
            (first ? "\n" : ",\n")
                + String(
                    format:
                        "{\"time\":%.6f,\"meanLuminance\":%.5f,\"flashingFrameArea\":%.4f,\"flashingFieldArea\":%.4f,\"transitionsInLastSecond\":%d,\"redTransitionsInLastSecond\":%d}",
                    frame.time, frame.meanLuminance, frame.flashingFrameArea, frame.flashingFieldArea,
                    frame.transitionsInLastSecond, frame.redTransitionsInLastSecond))
        first = false
    }

    func commit() throws {
        try csv?.commit()
        json?.write(first ? "]\n" : "\n]\n")
        try json?.commit()
    }
}
