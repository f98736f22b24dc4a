import Foundation

// `make fuzz-media`: damaged media through the commands that read it. Seeds (MP4, Matroska, WebM, Ogg, MPEG-TS)
// are mutated — bytes flipped, cut short, ranges zeroed, boxes or blocks shuffled, box sizes broken, ranges
// duplicated — and each variant goes through `probe`, `flash`, `sync` and `check` with a time limit. Any crash
// (a signal), hang (the time limit), exit status other than 0/1/2, peak memory over 1 GiB or change to the input
// fails the sweep; the variants are kept for replaying a failure.
//
//   MediaMutationSweep [--variants N] [--timeout SECONDS] [--seed N] [--medialint PATH] [--work DIR]

struct Options {
    var variants = 300
    var timeout = 60.0
    var seed: UInt64 = 2026
    var medialint = ".build/release/medialint"
    var work = ".build/fuzz-media"

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { fail("\(flag) needs a value") }
            switch flag {
            case "--variants": variants = Int(value) ?? variants
            case "--timeout": timeout = Double(value) ?? timeout
            case "--seed": seed = UInt64(value) ?? seed
            case "--medialint": medialint = value
            case "--work": work = value
            default: fail("unknown option \(flag)")
            }
        }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("fuzz-media: \(message)\n".utf8))
    exit(2)
}

/// A small, seedable random generator (SplitMix64): the same seed gives the same variants.
struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }
    mutating func range(_ bounds: ClosedRange<Int>) -> Int { bounds.lowerBound + below(bounds.count) }
}

/// The ways a file is damaged.
enum Mutation: String, CaseIterable {
    case flip, cut, zero, shuffle, size, duplicate

    func apply(to data: inout [UInt8], _ random: inout Random) {
        let count = data.count
        guard count > 16 else { return }
        switch self {
        case .flip:
            // Half of the time in the header, where a flip changes most.
            let span = random.below(2) == 0 ? min(count, 4096) : count
            for _ in 0..<random.range(1...32) { data[random.below(span)] ^= UInt8(truncatingIfNeeded: random.range(1...255)) }
        case .cut:
            let ends = [100, 4096, count / 10, count / 2, count - 1, random.below(count)]
            data.removeSubrange(max(1, min(count - 1, ends[random.below(ends.count)]))...)
        case .zero:
            let length = random.range(16...4096), start = random.below(count)
            for index in start..<min(count, start + length) { data[index] = 0 }
        case .shuffle:
            // MP4: two top-level boxes swapped; anything else: two 1 KB blocks.
            if let boxes = Self.topLevelBoxes(data), boxes.count >= 2 {
                let a = random.below(boxes.count), b = random.below(boxes.count)
                let (first, second) = (boxes[min(a, b)], boxes[max(a, b)])
                guard first != second else { return }
                data =
                    Array(data[..<first.lowerBound]) + Array(data[second]) + Array(data[first.upperBound..<second.lowerBound])
                    + Array(data[first]) + Array(data[second.upperBound...])
            } else {
                let block = 1024, blocks = count / block
                guard blocks >= 2 else { return }
                let a = random.below(blocks) * block, b = random.below(blocks) * block
                for offset in 0..<block { data.swapAt(a + offset, b + offset) }
            }
        case .size:
            // A box or element size made 0, 1, tiny or huge: at a four-letter box type, else anywhere.
            var places: [Int] = []
            for index in 4..<(count - 4) where places.count < 64 {
                if (0..<4).allSatisfy({ (0x61...0x7A).contains(data[index + $0]) }) { places.append(index - 4) }
            }
            let at = places.isEmpty ? random.below(count - 4) : places[random.below(places.count)]
            let sizes: [[UInt8]] = [[0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 8], [0xFF, 0xFF, 0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xF0]]
            data.replaceSubrange(at..<(at + 4), with: sizes[random.below(sizes.count)])
        case .duplicate:
            let length = random.range(16...min(65_536, count / 2)), start = random.below(count - length)
            data.insert(contentsOf: data[start..<(start + length)], at: random.below(count))
        }
    }

    /// The byte ranges of an MP4's top-level boxes, when the file is a sequence of them.
    static func topLevelBoxes(_ data: [UInt8]) -> [Range<Int>]? {
        var boxes: [Range<Int>] = []
        var offset = 0
        while offset + 8 <= data.count {
            let size = data[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8, offset + size <= data.count, (4..<8).allSatisfy({ (0x20...0x7E).contains(data[offset + $0]) }) else { return nil }
            boxes.append(offset..<(offset + size))
            offset += size
        }
        return offset == data.count ? boxes : nil
    }
}

/// One run of a command on a variant.
struct Run {
    var command: String
    var variant: String
    var status: Int32?  // nil when ended by a signal or the time limit
    var signal: Int32?
    var timedOut = false
    var seconds: Double
    var peakMiB: Double
}

/// Runs medialint with a time limit, measuring wall time and peak memory (the child's own, from wait4).
func execute(_ medialint: String, _ arguments: [String], timeout: Double) -> (status: Int32?, signal: Int32?, timedOut: Bool, seconds: Double, peakMiB: Double)
{
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([medialint] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = Date()
    guard posix_spawn(&pid, medialint, &actions, nil, argv, environ) == 0 else { fail("cannot start \(medialint)") }
    var status: Int32 = 0
    var usage = rusage()
    var timedOut = false
    while true {
        let done = wait4(pid, &status, WNOHANG, &usage)
        if done == pid { break }
        if done < 0, errno != EINTR { fail("wait4: \(String(cString: strerror(errno)))") }
        if Date().timeIntervalSince(start) > timeout, !timedOut {
            timedOut = true
            kill(pid, SIGKILL)
        }
        usleep(2000)
    }
    let seconds = Date().timeIntervalSince(start)
    let peak = Double(usage.ru_maxrss) / 1024
    let signalled = status & 0x7F
    if timedOut { return (nil, nil, true, seconds, peak) }
    if signalled != 0 { return (nil, signalled, false, seconds, peak) }
    return ((status >> 8) & 0xFF, nil, false, seconds, peak)
}

func fileHash(_ path: String) -> UInt64 {
    guard let data = FileManager.default.contents(atPath: path) else { return 0 }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in data { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return hash ^ UInt64(data.count)
}

// MARK: - The sweep

let options = Options(CommandLine.arguments)
guard FileManager.default.isExecutableFile(atPath: options.medialint) else { fail("\(options.medialint) not found: build it first (make release)") }
let seedsFolder = options.work + "/seeds", variantsFolder = options.work + "/variants"
try? FileManager.default.removeItem(atPath: variantsFolder)
try FileManager.default.createDirectory(atPath: seedsFolder, withIntermediateDirectories: true)
try FileManager.default.createDirectory(atPath: variantsFolder, withIntermediateDirectories: true)

/// The seeds: the bundled samples, and WebM and MPEG-TS made from them with the ffmpeg CLI.
var seeds: [(kind: String, path: String)] = [("mp4", "Media/speech.mp4"), ("mkv", "Media/embedded-subtitles.mkv"), ("ogg", "Media/audio-only.ogg")]
for (kind, arguments) in [("webm", ["-t", "4", "-c:v", "libvpx", "-b:v", "200k", "-c:a", "libvorbis"]), ("ts", ["-c", "copy", "-f", "mpegts"])] {
    let path = "\(seedsFolder)/speech.\(kind)"
    if !FileManager.default.fileExists(atPath: path) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", "Media/speech.mp4"] + arguments + [path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { fail("ffmpeg could not make the \(kind) seed") }
    }
    seeds.append((kind, path))
}

var random = Random(state: options.seed)
var variants: [String] = []
var hashes: [String: UInt64] = [:]
for index in 0..<options.variants {
    let seed = seeds[index % seeds.count]
    let mutation = Mutation.allCases[(index / seeds.count) % Mutation.allCases.count]
    var data = [UInt8](FileManager.default.contents(atPath: seed.path) ?? Data())
    // One to three damages of the same kind.
    for _ in 0..<random.range(1...3) { mutation.apply(to: &data, &random) }
    let path = "\(variantsFolder)/\(seed.kind)-\(mutation.rawValue)-\(index).\(seed.kind)"
    guard FileManager.default.createFile(atPath: path, contents: Data(data)) else { fail("cannot write \(path)") }
    variants.append(path)
    hashes[path] = fileHash(path)
}

/// The commands each variant goes through: the name, then the options after the file.
let commands: [(name: String, after: [String])] = [("probe", []), ("flash", []), ("sync", []), ("check", ["--no-store"])]
print(
    "make fuzz-media: \(variants.count) variants of \(seeds.map(\.kind).joined(separator: ", ")) (\(Mutation.allCases.map(\.rawValue).joined(separator: ", "))) × \(commands.count) commands, \(Int(options.timeout)) s limit each"
)
let started = Date()
/// The runs so far, gathered from the worker threads.
final class Runs: @unchecked Sendable {
    private let lock = NSLock()
    private var all: [Run] = []
    func add(_ run: Run) { lock.withLock { all.append(run) } }
    var list: [Run] { lock.withLock { all } }
}
let gathered = Runs()
let medialint = options.medialint, timeout = options.timeout
let jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
let queue = DispatchQueue(label: "sweep", attributes: .concurrent)
let slots = DispatchSemaphore(value: jobs)
let group = DispatchGroup()
for variant in variants {
    for (name, after) in commands {
        slots.wait()
        queue.async(group: group) {
            let outcome = execute(medialint, [name, variant] + after, timeout: timeout)
            gathered.add(
                Run(
                    command: name, variant: variant, status: outcome.status, signal: outcome.signal, timedOut: outcome.timedOut,
                    seconds: outcome.seconds, peakMiB: outcome.peakMiB))
            slots.signal()
        }
    }
}
group.wait()
let runs = gathered.list
let elapsed = Date().timeIntervalSince(started)

// MARK: - Summary

let crashes = runs.filter { $0.signal != nil }
let hangs = runs.filter(\.timedOut)
let oddStatuses = runs.filter { $0.status.map { ![0, 1, 2].contains($0) } ?? false }
let heavy = runs.filter { $0.peakMiB > 1024 }
let modified = variants.filter { fileHash($0) != hashes[$0] }
var statusCounts: [Int32: Int] = [:]
for run in runs { if let status = run.status { statusCounts[status, default: 0] += 1 } }
let slowest = runs.max { $0.seconds < $1.seconds }
let largest = runs.max { $0.peakMiB < $1.peakMiB }
print(
    "  \(runs.count) runs in \(String(format: "%.0f", elapsed)) s: "
        + statusCounts.keys.sorted().map { "exit \($0): \(statusCounts[$0]!)" }.joined(separator: " · "))
print(
    "  crashes: \(crashes.count) · hangs: \(hangs.count) · other exit statuses: \(oddStatuses.count) · over 1 GiB: \(heavy.count) · inputs modified: \(modified.count)"
)
if let slowest, let largest {
    print(
        "  slowest: \(String(format: "%.2f", slowest.seconds)) s (\(slowest.command) \(slowest.variant)) · most memory: \(String(format: "%.0f", largest.peakMiB)) MiB (\(largest.command) \(largest.variant))"
    )
}
for kind in seeds.map(\.kind) {
    let mine = runs.filter { $0.variant.hasSuffix("." + kind) }
    let passes = mine.filter { $0.command == "flash" && $0.status == 0 }.count
    print("  \(kind): \(mine.count) runs, flash exit 0 on \(passes) of \(mine.count / commands.count) variants")
}
let failures = crashes + hangs + oddStatuses + heavy
for run in failures.prefix(20) {
    let what = run.timedOut ? "hang" : run.signal.map { "signal \($0)" } ?? run.status.map { "exit \($0)" } ?? "?"
    print("  FAILED: medialint \(run.command) \(run.variant): \(what), \(String(format: "%.0f", run.peakMiB)) MiB")
}
for path in modified.prefix(20) { print("  FAILED: \(path) was modified") }
if !failures.isEmpty || !modified.isEmpty {
    print("make fuzz-media: FAILED (variants kept in \(variantsFolder))")
    exit(1)
}
print("make fuzz-media: ok (variants kept in \(variantsFolder))")
