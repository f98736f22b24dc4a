import Basics
import Foundation
import TestSupport
import Testing

@testable import Findings

/// Each check's metrics are one typed struct: rounded once where they are made, written in a fixed key order, read
/// back as the same struct from a result made in this run or parsed from JSON (the results store, a report), and
/// exactly what the documented schema allows.
@Suite struct CheckMetricsTests {
    /// Every metrics type with every field set.
    static var flash: FlashMetrics {
        FlashMetrics(
            framesAnalysed: 180, fps: 29.970029970, maxGeneralFlashesPerSecond: 4, maxRedFlashesPerSecond: 5.5, standard: "kwcag",
            areaBasis: "field", hdr: true, series: FlashMetrics.Series(bin: 0.5, luminance: [0.12345, 0.9], flashesPerSecond: [2.25, 5.5]))
    }

    static var sync: SyncMetrics {
        var metrics = SyncMetrics(captions: "Media/speech.srt", mediaDuration: 12.34567)
        metrics.audioStream = 1
        metrics.setFit(confidence: 0.876, matchedCues: 14, noiseFloorDecibels: -61.26)
        metrics.setTiming(offset: 0.40049, drift: 1.0010004999, speechCoverage: 0.95, captionCoverage: 0.81234, onTimeFraction: 0.9)
        metrics.dialogueCues = 15
        metrics.cues = [
            SyncMetrics.Cue(cue: 1, start: 1.0004, residual: 0.0304, speech: 0.987), SyncMetrics.Cue(cue: 3, start: 4.5, residual: nil, speech: 0),
        ]
        metrics.timeline = SyncMetrics.Timeline(bin: 0.5, speech: [0, 0.333, 1], captions: [0.5, 1.004, 1])
        metrics.fix = SyncMetrics.Fix(offset: -0.40049, scale: 0.9990005001)
        return metrics
    }

    static var lint: LintMetrics {
        LintMetrics(
            cues: 4, format: "webvtt", encoding: "utf-8", profile: "netflix", fps: 23.976,
            findingsByRule: ["lint.reading-speed": 2, "lint.line-length": 1, "lint.gap": 3])
    }

    static let page = AutoplayPageMetrics(elements: 6, profile: "wcag")
    static let media = AutoplayMediaMetrics(duration: 5.0074, hasAudio: true, audibleSeconds: 3.00049, firstAudible: 1.0001, lastAudible: 4.0006)

    static var captions: CaptionsMetrics {
        CaptionsMetrics(
            captionFiles: ["talk.en.srt"],
            captionTracks: [
                CaptionsMetrics.Track(index: 2, language: nil, hearingImpaired: true, text: true),
                CaptionsMetrics.Track(index: 3, language: "fra", hearingImpaired: false, text: false),
            ],
            audioDescriptionTracks: [1], transcripts: ["talk.txt"], speechSeconds: 42.46)
    }

    static func json(_ metrics: some CheckMetrics) -> String { CheckResult(file: "f", findings: [], metrics: metrics).metrics.serialized() }

    @Test func roundingLivesInTheInitializers() {
        #expect(Self.flash.fps == 29.97 && Self.flash.samplingLimit == 14.985 && Self.flash.maxFlashesPerSecond == 5.5)
        #expect(Self.flash.series?.luminance == [0.123, 0.9] && Self.flash.series?.flashesPerSecond == [2.3, 5.5])
        let sync = Self.sync
        #expect(sync.mediaDuration == 12.346 && sync.confidence == 0.88 && sync.noiseFloorDecibels == -61.3)
        #expect(sync.offsetSeconds == 0.4 && sync.driftRatio == 1.001 && sync.captionCoverage == 0.812)
        #expect(sync.cues?.map(\.start) == [1, 4.5] && sync.cues?.map(\.residual) == [0.03, nil] && sync.cues?.map(\.speech) == [0.99, 0])
        #expect(sync.timeline?.speech == [0, 0.33, 1] && sync.timeline?.captions == [0.5, 1, 1], "shares are capped at 1")
        #expect(sync.fix == SyncMetrics.Fix(offset: -0.4, scale: 0.999001))
        #expect(Self.media.duration == 5.007 && Self.media.audibleSeconds == 3 && Self.media.lastAudible == 4.001)
        #expect(Self.captions.speechSeconds == 42.5)
    }

    @Test func keysAreWrittenInDeclarationOrderNullsWhereTheContractSaysSo() {
        #expect(
            Self.json(Self.lint)
                == #"{"cues":4,"format":"webvtt","encoding":"utf-8","profile":"netflix","fps":23.976,"findingsByRule":{"lint.gap":3,"lint.line-length":1,"lint.reading-speed":2}}"#
        )
        #expect(
            Self.json(Self.sync)
                == #"{"captions":"Media/speech.srt","mediaDuration":12.346,"audioStream":1,"confidence":0.88,"matchedCues":14,"noiseFloorDecibels":-61.3,"offsetSeconds":0.4,"driftRatio":1.001,"speechCoverage":0.95,"captionCoverage":0.812,"dialogueCues":15,"onTimeFraction":0.9,"cues":[{"cue":1,"start":1,"residual":0.03,"speech":0.99},{"cue":3,"start":4.5,"residual":null,"speech":0}],"timeline":{"bin":0.5,"speech":[0,0.33,1],"captions":[0.5,1,1]},"fix":{"offset":-0.4,"scale":0.999001}}"#
        )
        // An unverified sync result stops where the check stopped: no timing keys at all, not nulls.
        #expect(Self.json(SyncMetrics(captions: "track 2")) == #"{"captions":"track 2"}"#)
        #expect(
            Self.json(Self.captions)
                == #"{"captionFiles":["talk.en.srt"],"captionTracks":[{"index":2,"language":null,"hearingImpaired":true,"text":true},{"index":3,"language":"fra","hearingImpaired":false,"text":false}],"audioDescriptionTracks":[1],"transcripts":["talk.txt"],"speechSeconds":42.5}"#
        )
        #expect(Self.json(CaptionsMetrics(speechSeconds: 0.04)) == #"{"speechSeconds":0}"#)
    }

    /// What `report` does with the results store: results parsed from JSON text read back as the same metrics.
    @Test func metricsReadBackFromParsedJSONAreTheSame() throws {
        func roundTrip<M: CheckMetrics & Equatable>(_ metrics: M) throws -> M? {
            let text = CheckResult(file: "f", findings: [], metrics: metrics).metrics.serialized()
            let parsed = CheckResult(file: "f", check: M.check, findings: [], metrics: try JSONValue.parse(text))
            return parsed.metrics(as: M.self)
        }
        #expect(try roundTrip(Self.flash) == Self.flash)
        #expect(try roundTrip(Self.sync) == Self.sync)
        #expect(try roundTrip(SyncMetrics(captions: "track 2")) == SyncMetrics(captions: "track 2"))
        #expect(try roundTrip(Self.lint) == Self.lint)
        #expect(try roundTrip(Self.page) == Self.page)
        #expect(try roundTrip(Self.media) == Self.media)
        #expect(try roundTrip(Self.captions) == Self.captions)
    }

    @Test func metricsOfAnotherCheckOrOfAnErrorResultReadAsNothing() {
        let flash = CheckResult(file: "f", findings: [], metrics: Self.flash)
        #expect(flash.check == .flash && flash.metrics(as: FlashMetrics.self) != nil)
        #expect(flash.metrics(as: SyncMetrics.self) == nil)
        #expect(CheckResult.unreadable(file: "f", check: .flash, reason: "truncated").metrics(as: FlashMetrics.self) == nil)
        // A page's metrics are not a media file's, and the other way round.
        let page = CheckResult(file: "p.html", findings: [], metrics: Self.page)
        #expect(page.metrics(as: AutoplayMediaMetrics.self) == nil && page.metrics(as: AutoplayPageMetrics.self) == Self.page)
        // Metrics missing a required member do not read (a chart is not drawn from half a series).
        let partial = CheckResult(file: "f", check: .flash, findings: [], metrics: .object([("framesAnalysed", .integer(3))]))
        #expect(partial.metrics(as: FlashMetrics.self) == nil)
    }

    /// The documented schema allows every key the structs write and nothing else (`additionalProperties: false`).
    @Test func everyMetricsStructFollowsTheDocumentedSchema() throws {
        let schemaURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/schema/check-report.schema.json")
        let schema = try JSONNode.parse(String(contentsOf: schemaURL, encoding: .utf8))
        let definitions = try #require(schema["definitions"])
        let validator = JSONSchemaValidator(root: .object(["$ref": .string("#/definitions/result"), "definitions": definitions]))
        let results = [
            CheckResult(file: "a.mp4", findings: [], metrics: Self.flash), CheckResult(file: "a.mp4", findings: [], metrics: Self.sync),
            CheckResult(file: "a.vtt", findings: [], metrics: Self.lint), CheckResult(file: "a.html", findings: [], metrics: Self.page),
            CheckResult(file: "a.mp4", findings: [], metrics: Self.media), CheckResult(file: "a.mp4", findings: [], metrics: Self.captions),
        ]
        for result in results {
            let errors = validator.errors(in: try JSONNode.parse(try JSONValueEncoder().encode(result).serialized()))
            #expect(errors.isEmpty, "\(result.check): \(errors)")
        }
        // A key the schema does not document is refused.
        var stray = CheckResult(file: "a.vtt", findings: [], metrics: Self.lint)
        if case .object(var members) = stray.metrics { members.append(("cueCount", .integer(4))); stray.metrics = .object(members) }
        #expect(!validator.errors(in: try JSONNode.parse(try JSONValueEncoder().encode(stray).serialized())).isEmpty)
    }
}
