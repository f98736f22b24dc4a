import Basics
import Findings
import FlashDetection
import Foundation
import MediaIO
import Streaming

/// Runs the flash analysis on one media file: decoding (MediaIO, on its own thread) feeds the analyser
/// (FlashDetection) frame by frame, and the report becomes a check result with findings.
public struct FlashCheck: Sendable {
    public let configuration: FlashConfiguration
    public let streamIndex: Int?
    /// Decoder threads (0: one per core). A library check running several files at once uses one each.
    public var decodeThreads = 0
    /// Decode exactly as a player does. By default H.264's in-loop deblocking filter is left out from 1080p up (the
    /// analysis reads block means, which the filter's smoothing of block edges hardly moves): about a fifth faster,
    /// with the same verdicts and incident times on every clip tested (FastDecodeTests).
    public var exactDecode = false
    /// Files that can be split (MP4 and QuickTime, with a sample index) are decoded in segments of at least this many
    /// seconds between key frames, one beside the other on the cores `decodeThreads` allows, each measured where it is
    /// decoded: the same measurements as one decoder from the start, faster (SegmentedFlashTests).
    public var segmentSeconds = 2.0

    public init(configuration: FlashConfiguration = .profile("wcag")!, streamIndex: Int? = nil, decodeThreads: Int = 0, exactDecode: Bool = false) {
        self.configuration = configuration
        self.streamIndex = streamIndex
        self.decodeThreads = decodeThreads
        self.exactDecode = exactDecode
    }

    /// Receives each frame's measurement (for `--frames-csv`).
    public typealias FrameSink = (FrameMeasurement) -> Void
    /// Told, after each frame, the seconds decoded so far, the media's duration (when known) and the frames.
    public typealias Progress = (_ done: Double, _ total: Double?, _ frames: Int) -> Void

    public func run(path: String, frames sink: FrameSink? = nil, progress: Progress? = nil) throws(MediaError) -> CheckResult {
        try analyse([(files: [path], clock: nil)], file: path, stated: nil, frames: sink, progress: progress)
    }

    /// The flash analysis of a video cut into files that play one after another (an HLS variant's initialisation
    /// section and media segments): each run of files decoded as one stream, as a player appends them, its times put
    /// on the presentation's timeline by its `clock` (an HLS discontinuity sequence's); one analysis across them all,
    /// so that flashing over a cut is seen whole. `duration` (the playlist's) is what the decoded frames must cover.
    public func run(
        runs: [(files: [String], clock: HLSSequenceClock)], file: String, duration: Double?, segmentsLeftOut: Bool = false,
        progress: Progress? = nil
    ) throws(MediaError) -> CheckResult {
        guard runs.contains(where: { !$0.files.isEmpty }) else {
            throw MediaError(.corrupt, path: file, reason: "no video segment could be read: nothing to judge flashing on")
        }
        return try analyse(
            runs.filter { !$0.files.isEmpty }.map { ($0.files, $0.clock) }, file: file, stated: duration, frames: nil, progress: progress,
            holesAreSaid: segmentsLeftOut)
    }

    /// Decodes each run (its files read as one stream) into one analyser, its times put on the presentation's timeline
    /// by its clock. For a single file (no clock), times are the file's own; `stated` overrides the duration to cover.
    private func analyse(
        _ runs: [(files: [String], clock: HLSSequenceClock?)], file: String, stated: Double?, frames sink: FrameSink?, progress: Progress?,
        holesAreSaid: Bool = false
    ) throws(MediaError) -> CheckResult {
        let configuration = configuration
        let analyzer = FlashAnalyzer(configuration: configuration)
        analyzer.measuresEveryFrame = sink != nil
        var count = 0
        var span: (first: Double, end: Double)?
        var series: TimeSeries?
        var stream: StreamInfo?
        var statedDuration = stated
        var origin = 0.0
        let placed = runs.contains { $0.clock != nil }
        // Decoding (its threads are started at normal priority) is the critical path: the analysis on this thread
        // yields to it, and takes the cycles decoding leaves idle.
        let previousNice = ThreadPriority.lower(to: 5)
        defer { ThreadPriority.restore(previousNice) }
        var unseen = UnseenStretches()
        for run in runs {
            unseen.restart()
            let decoding = try SegmentedVideoDecoding(
                path: run.files[0], followedBy: Array(run.files.dropFirst()),
                options: .init(streamIndex: streamIndex, threads: decodeThreads, skipLoopFilter: !exactDecode), minimumSegmentSeconds: segmentSeconds
            ) { FlashSegmentWork(configuration: configuration) }
            let info = decoding.stream
            if stream == nil {
                stream = info
                if !placed { origin = info.startTime ?? 0 }
                if stated == nil { statedDuration = decoding.statedDuration }
                series = TimeSeries(duration: statedDuration ?? info.duration ?? 0)
            }
            while let output = try decoding.next() {
                guard case .frame(var measured, let duration) = output else {
                    // Times on the presentation's timeline, like the frames they stand for.
                    let placed = { (time: Double) in run.clock.map { $0.presentationTime(time) } ?? time }
                    switch output {
                    case .look(let look): analyzer.replaceLook(with: look.at(placed(look.time)))
                    case .firstAfterEnd(let time, let reversals, let look):
                        analyzer.replaceReversals(at: placed(time), with: reversals)
                        if let look { analyzer.replaceLook(with: look.at(placed(look.time))) }
                    case .frame: break
                    }
                    continue
                }
                if let clock = run.clock { measured.time = clock.presentationTime(measured.time) }
                unseen.add(time: measured.time, duration: duration)
                let end = measured.time + (duration ?? info.video?.fps.map { 1 / $0 } ?? 0)
                span = (min(span?.first ?? measured.time, measured.time), max(span?.end ?? end, end))
                let measurement = analyzer.add(measured)
                sink?(measurement)
                series?.add(
                    time: measurement.time - origin, luminance: measurement.meanLuminance,
                    flashes: Double(max(measurement.transitionsInLastSecond, measurement.redTransitionsInLastSecond)) / 2)
                count += 1
                progress?(measured.time - origin, statedDuration ?? info.duration, count)
            }
        }
        guard let stream else { throw MediaError(.corrupt, path: file, reason: "no video stream could be read") }
        var result = result(for: analyzer.finish(), path: file, stream: stream, series: series?.metrics)
        // Holes in the decoded video are damage, unless segments left out of a package (said by the caller) make them.
        if !holesAreSaid, let first = unseen.stretches.first {
            let count = unseen.stretches.count
            let span = "\(String(format: "%.3f", first.from - origin))–\(String(format: "%.3f", first.to - origin)) s"
            result.markUnverified(  // flashing seen in the decoded part still fails
                Rule.flashUnverified.finding(
                    severity: .warning,
                    message:
                        "\(String(format: "%.3f", unseen.total)) s of video could not be decoded (\(count == 1 ? span : "\(count) stretches, the first \(span)")): the file is damaged there, and flashing in \(count == 1 ? "it" : "them") was not checked",
                    start: first.from - origin, end: first.to - origin,
                    data: .object([("unseenSeconds", .number(NumberText.rounded(unseen.total))), ("stretches", .integer(Int64(count)))])))
        }
        try Self.checkCoverage(
            &result, frames: count, decoded: span.map { $0.end - $0.first } ?? 0, stated: statedDuration, stream: stream.index, path: file,
            remeasure: !placed && runs[0].files.count == 1)
        return result
    }

    /// A flash check never passes video it did not see. No frame (or a single one of a longer stream) is an error;
    /// decoding that ends well before the duration the file states is the truncation `probe` reports (an error,
    /// with the same reason), or a video stream shorter than the others (fine, when its packets end where decoding
    /// did), or else frames that could not be decoded: the result is `unverified`, the decoded span stated.
    static func checkCoverage(
        _ result: inout CheckResult, frames: Int, decoded: Double, stated: Double?, stream: Int,
        path: String, remeasure: Bool = true
    ) throws(MediaError) {
        let statedText = stated.map { " of the \(String(format: "%.3f", $0)) s the file states" } ?? ""
        if frames == 0 || (frames == 1 && (stated ?? 0) > 1) {
            throw MediaError(
                .corrupt, path: path,
                reason: "\(frames == 0 ? "no video frame" : "only one video frame") could be decoded\(statedText): nothing to judge flashing on")
        }
        if frames == 1 {
            // A file that states no duration (MPEG-TS, say) cut to its first frame: one picture cannot show flashing,
            // and nothing says whether more was meant to follow.
            result.markUnverified(
                Rule.flashUnverified.finding(
                    severity: .warning,
                    message: "only one video frame could be decoded: flashing needs a sequence of frames to be judged"))
            return
        }
        guard let stated, stated - decoded > max(1.0, 0.05 * stated) else { return }
        if remeasure {
            // The same reason as probe, sync and check give when the packets end early.
            let measured = try MediaProbe.probe(path, scan: .always)
            // A video stream that simply ends before the others (the container's duration is theirs): all of it was seen.
            if let packets = measured.streams.first(where: { $0.index == stream })?.duration, packets - decoded <= max(1.0, 0.05 * packets) { return }
        }
        result.markUnverified(  // flashing seen in the decoded part still fails
            Rule.flashUnverified.finding(
                severity: .warning,
                message:
                    "only \(String(format: "%.3f", decoded)) s of video (\(frames) frames) could be decoded\(statedText): the rest was not checked for flashing",
                data: .object([("decodedSeconds", .number(NumberText.rounded(decoded))), ("statedSeconds", .number(NumberText.rounded(stated)))])))
    }

    /// Mean, darkest and brightest luminance and flashes a second over time, in at most 600 bins (for charts).
    struct TimeSeries {
        var bin: Double
        var luminance: [(sum: Double, count: Int, low: Double, high: Double)] = []
        var flashes: [Double] = []

        init(duration: Double) { bin = NumberText.chartBin(duration: duration) }

        mutating func add(time: Double, luminance value: Double, flashes rate: Double) {
            let index = max(0, Int(time / bin))
            while luminance.count <= index {
                luminance.append((0, 0, .infinity, -.infinity))
                flashes.append(0)
            }
            luminance[index].sum += value
            luminance[index].count += 1
            luminance[index].low = min(luminance[index].low, value)
            luminance[index].high = max(luminance[index].high, value)
            flashes[index] = max(flashes[index], rate)
        }

        var metrics: FlashMetrics.Series {
            FlashMetrics.Series(
                bin: bin, luminance: luminance.map { $0.count > 0 ? $0.sum / Double($0.count) : 0 }, flashesPerSecond: flashes,
                luminanceMin: luminance.map { $0.count > 0 ? $0.low : 0 }, luminanceMax: luminance.map { $0.count > 0 ? $0.high : 0 })
        }
    }

    /// The analyser's view of a decoded picture: its planes in place, with their colour.
    static func flashFrame(_ frame: VideoFrame, _ planes: YCbCrPlanes) -> FlashFrame {
        func plane(_ p: ImagePlane) -> SamplePlane {
            SamplePlane(
                baseAddress: p.baseAddress, bytesPerRow: p.bytesPerRow, width: p.width, height: p.height,
                bytesPerSample: p.bytesPerSample)
        }
        let weights = frame.color.lumaCoefficients(height: frame.height)
        return FlashFrame(
            time: frame.time, luma: plane(planes.luma), cb: planes.cb.map(plane), cr: planes.cr.map(plane),
            chromaShiftX: frame.layout.chromaShiftX, chromaShiftY: frame.layout.chromaShiftY,
            color: PictureColor(
                kr: weights.kr, kb: weights.kb, fullRange: frame.color.isFullRange,
                bitDepth: frame.layout.bitDepth, transfer: transfer(frame.color),
                wideGamut: frame.color.primaries == "bt2020"))
    }

    /// The transfer a picture's colour states: PQ or HLG, else the SDR curve.
    static func transfer(_ color: ColorInfo) -> TransferFunction {
        switch color.transfer {
        case "smpte2084": return .pq
        case "arib-std-b67": return .hlg
        default: return .sdr
        }
    }

    // MARK: - Findings

    /// The findings and metrics of a finished analysis (with `series` for charts, when it was kept).
    public func result(for report: FlashReport, path: String, stream: StreamInfo, series: FlashMetrics.Series? = nil) -> CheckResult {
        // The container's average rate when it states one (timestamps may be rounded), else the measured one.
        let fps = stream.video?.fps ?? report.measuredFPS
        var findings = report.incidents.map(finding)
        if let color = stream.video?.color, color.isHDR {
            let transfer = Self.transfer(color) == .pq ? "PQ" : "HLG"
            let display = transfer == "HLG" ? " on BT.2100's 1000 cd/m² reference display" : ""
            findings.append(
                Rule.flashHDR.finding(
                    severity: .info,
                    message:
                        "HDR video (\(transfer)): luminance through the BT.2100 \(transfer) transfer\(display), relative to BT.2408's reference white (203 cd/m² = 1.0; brighter highlights count as 1.0)",
                    guidelines: configuration.guidelines))
        }
        if configuration.profile == "kwcag", fps / 2 < 50 {
            findings.append(
                Rule.flashSamplingLimit.finding(
                    severity: .warning,
                    message:
                        "at \(Self.number(fps)) frames a second the video can show at most \(Self.number(fps / 2)) flashes a second: flashing from \(Self.number(fps / 2)) to 50 a second (the top of the KWCAG 3.3 band) cannot be judged from this file",
                    guidelines: ["KWCAG 3.3"], data: .object([("samplingLimit", .number(fps / 2))])))
        }
        let metrics = FlashMetrics(
            framesAnalysed: report.framesAnalysed, fps: fps, maxGeneralFlashesPerSecond: report.maxFlashesPerSecond,
            maxRedFlashesPerSecond: report.maxRedFlashesPerSecond, standard: configuration.profile,
            areaBasis: configuration.areaBasis.rawValue, hdr: stream.video?.color.isHDR ?? false,
            flashLimit: configuration.maximumFlashesPerSecond, series: series)
        return CheckResult(file: path, findings: findings, metrics: metrics)
    }

    private func finding(_ incident: FlashIncident) -> Finding {
        let data = JSONValue.object([
            ("peakFlashesPerSecond", .number(incident.peakFlashesPerSecond)),
            ("peakFrameArea", .number(NumberText.rounded(incident.peakFrameArea))),
            ("peakFieldArea", .number(NumberText.rounded(incident.peakFieldArea))),
            ("transitions", .integer(Int64(incident.transitions))),
        ])
        let area = "over \(Self.percent(incident.peakFrameArea)) of the frame (\(Self.percent(incident.peakFieldArea)) of the worst 10° field)"
        switch incident.kind {
        case .general:
            return Rule.flashGeneral.finding(
                severity: .error,
                message: "general flashing: up to \(Self.number(incident.peakFlashesPerSecond)) flashes a second \(area)",
                start: incident.start, end: incident.end, guidelines: configuration.guidelines, data: data)
        case .red:
            return Rule.flashRed.finding(
                severity: .error,
                message: "red flashing: up to \(Self.number(incident.peakFlashesPerSecond)) flashes a second \(area)",
                start: incident.start, end: incident.end, guidelines: configuration.guidelines, data: data)
        case .pattern:
            let details = incident.pattern ?? PatternDetails(pairs: 0, kind: .stripes, changing: false)
            let shape =
                switch details.kind {
                case .stripes: "stripes"
                case .checkerboard: "a checkerboard"
                case .curved: "curved stripes, rings or rays"
                }
            let basis = configuration.areaBasis == .frame ? "of the screen" : "of the worst 10° field"
            let coverage = configuration.areaBasis == .frame ? incident.peakFrameArea : incident.peakFieldArea
            return Rule.patternRegular.finding(
                severity: details.changing || configuration.stillPatternsFail ? .error : .warning,
                message:
                    "regular pattern: \(shape) with \(details.pairs) light–dark pairs over \(Self.percent(coverage)) \(basis) for \(String(format: "%.1f", incident.end - incident.start)) s, \(details.changing ? "moving, flashing or reversing" : "still")",
                start: incident.start, end: incident.end, guidelines: ["ITU-R BT.1702"],
                data: .object([
                    ("pairs", .integer(Int64(details.pairs))), ("kind", .string(details.kind.rawValue)),
                    ("changing", .bool(details.changing)), ("peakFrameArea", .number(NumberText.rounded(incident.peakFrameArea))),
                    ("peakFieldArea", .number(NumberText.rounded(incident.peakFieldArea))),
                ]))
        case .extended:
            return Rule.flashExtended.finding(
                severity: .warning,
                message:
                    "extended flashing: 2 to 3 flashes a second held for at least 4 s of 5 s (up to \(Self.number(incident.peakFlashesPerSecond)) a second)",
                start: incident.start, end: incident.end, guidelines: configuration.guidelines, data: data)
        }
    }

    /// `3`, or `2.5`: flash counts and rates in messages.
    public static func number(_ value: Double) -> String { NumberText.short(value) }

    static func percent(_ fraction: Double) -> String { "\(Int((fraction * 100).rounded()))%" }
}

/// The calling thread's scheduling priority. On Linux the nice value belongs to each thread, and
/// `setpriority(PRIO_PROCESS, 0, …)` sets the calling thread's.
enum ThreadPriority {
    /// Raises the calling thread's nice value to at least `nice` (never further, however often it is called);
    /// returns the previous value.
    static func lower(to nice: Int32) -> Int32 {
        errno = 0
        let previous = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        guard errno == 0 else { return 0 }
        if previous < nice { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) }
        return previous
    }

    /// Puts the calling thread's nice value back (allowed when not below the original, or as root).
    static func restore(_ value: Int32) {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, value)
    }
}

/// The flash measurement of one segment's pictures, on the thread decoding it: each picture measured, and past the
/// segment's end what only this segment's measurer can see of the next segment's first pictures — the first one's
/// reversals (against this segment's last picture) and the next segment's first pattern look, made here where the
/// looks before it were.
final class FlashSegmentWork: VideoSegmentWork {
    enum Output: Sendable {
        case frame(FlashMeasurement, duration: Double?)
        /// The first picture past the segment's end: its reversals, and its look when one is due there.
        case firstAfterEnd(time: Double, reversals: BlockReversals?, look: PatternLook?)
        case look(PatternLook)
    }

    private let measurer: FlashFrameMeasurer
    private var afterEnd = 0

    init(configuration: FlashConfiguration) {
        measurer = FlashFrameMeasurer(configuration: configuration)
    }

    func take(_ frame: VideoFrame) -> Output? {
        frame.withPlanes { .frame(measurer.measure(FlashCheck.flashFrame(frame, $0)), duration: frame.duration) }
    }

    func takeAfterEnd(_ frame: VideoFrame) -> (output: Output?, wantsMore: Bool) {
        afterEnd += 1
        if afterEnd == 1 {
            // The first picture past the end, measured against this segment's last: its reversals, and its look if due.
            let measured = frame.withPlanes { measurer.measure(FlashCheck.flashFrame(frame, $0)) }
            let wantsLook = measurer.configuration.detectsPatterns && measured.look == nil
            return (.firstAfterEnd(time: measured.time, reversals: measured.reversals, look: measured.look), wantsLook)
        }
        guard let look = frame.withPlanes({ measurer.lookIfDue(FlashCheck.flashFrame(frame, $0)) }) else { return (nil, true) }
        return (.look(look), false)
    }
}
