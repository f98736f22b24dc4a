import Basics
import Findings

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Results kept for a report that needs every one before it starts (SARIF, JUnit, HTML), in a temporary file rather
/// than in memory: each result's JSON is written as it is added, and read back a unit at a time as often as the report
/// reads (`ResultSource`), so that a run over a whole catalogue holds an index, not its results. The file is removed
/// from its folder as soon as it is made (nothing is left behind, whatever happens to the process). The first results
/// stay in memory (a report of a few files costs nothing more), as does a result whose findings are streamed (made
/// again when written), and everything once the file cannot be written.
public final class SpilledResults {
    /// How many results are held in memory before the others go to the file.
    public let keptInMemory: Int

    public init(keptInMemory: Int = 1_000) { self.keptInMemory = keptInMemory }

    /// Where a result is: its JSON in the file, or in memory.
    private enum Place {
        case file(offset: Int, length: Int, seconds: Double?)
        case memory(CheckResult)
    }

    private var places: [Place] = []
    private var files = FileUnits()
    private var descriptor: Int32 = -1
    private var end = 0
    private var unwritable = false

    /// Why results could not be read back from the temporary file.
    public struct ReadError: Error, CustomStringConvertible {
        public var description: String
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    var isEmpty: Bool { places.isEmpty }

    func add(_ results: [CheckResult]) {
        for result in results {
            files.add(places.count, file: result.file)
            guard places.count >= keptInMemory, result.streamedFindings == nil, let offset = write(result) else {
                places.append(.memory(result))
                continue
            }
            places.append(.file(offset: offset, length: end - offset, seconds: result.seconds))
        }
    }

    /// Writes `result`'s JSON at the end of the file: its offset, or nil when it cannot be written.
    private func write(_ result: CheckResult) -> Int? {
        guard !unwritable else { return nil }
        if descriptor < 0 {
            let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
            var template = Array((folder + "/medialint-report-XXXXXX").utf8CString)
            descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else {
                unwritable = true
                return nil
            }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)  // not handed to the programs a check may start
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        }
        var writer = JSONWriter()
        result.write(to: &writer)
        let offset = end
        let written = writer.withBytes { bytes -> Int? in
            var done = 0
            while done < bytes.count {
                let count = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return nil }
                done += count
            }
            return done
        }
        guard let written else {
            unwritable = true
            return nil
        }
        end += written
        return offset
    }

    /// The result at `index`.
    fileprivate func result(_ index: Int) throws(ReadError) -> CheckResult {
        switch places[index] {
        case .memory(let result):
            return result
        case .file(let offset, let length, let seconds):
            var bytes = [UInt8](repeating: 0, count: length)
            let read = bytes.withUnsafeMutableBytes { buffer -> Int in
                var done = 0
                while done < length {
                    let count = pread(descriptor, buffer.baseAddress! + done, length - done, off_t(offset + done))
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { break }
                    done += count
                }
                return done
            }
            guard read == length else { throw ReadError(description: "the report's temporary file could not be read back") }
            do {
                var result = try CheckResult(json: try JSONValue.parse(String(decoding: bytes, as: UTF8.self)))
                result.seconds = seconds
                return result
            } catch {
                throw ReadError(description: "the report's temporary file could not be read back (\(error))")
            }
        }
    }

    /// The results as a source: a unit per result, or per file (`byFile`: a file's results together, the files in the
    /// order they first come).
    func source(byFile: Bool) -> Source { Source(results: self, units: byFile ? files.units : nil) }

    struct Source: ResultSource {
        typealias Failure = ReadError
        let results: SpilledResults
        let units: [[Int]]?

        var unitCount: Int { units?.count ?? results.places.count }

        func read(_ positions: [Int]?, _ body: (_ position: Int, _ results: [CheckResult]) -> Void) throws(ReadError) {
            for position in positions ?? Array(0..<unitCount) {
                var unit: [CheckResult] = []
                for index in units?[position] ?? [position] { unit.append(try results.result(index)) }
                body(position, unit)
            }
        }
    }
}
