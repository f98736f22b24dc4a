// swift-tools-version:6.0
import PackageDescription

/// The modules whose loops the tests run hard — pixels (MediaIO, FlashDetection), samples (SyncAnalysis, Autoplay,
/// SpeechAlignment, TestSupport's programmes), bytes (Basics, Captions) — run 3–70× slower unoptimised: debug builds of
/// this package (its tests, `swift run`) compile them with -O too. Measured on two cores: a second `swift test` took
/// 340 s unoptimised, 270 s with every module at -O; a build from nothing 311 s and 482 s. The other modules (the CLI,
/// checks, store, reports) gain the tests little and cost the build most, so they stay at -Onone. Not when the package
/// is a dependency checked out by another (SwiftPM allows no unsafe flags there): it then builds as any package does.
let optimisedInDebug: [SwiftSetting] =
    Context.packageDirectory.contains("/checkouts/") ? [] : [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "MediaLint",
    products: [
        .executable(name: "medialint", targets: ["medialint"]),
        // The caption modules alone, without FFmpeg.
        .library(name: "MediaLintCaptions", targets: ["Basics", "FileAccess", "Findings", "Captions", "CaptionQuality", "Transcripts"]),
        // Every module: media, checks, the library, reports.
        .library(
            name: "MediaLint",
            targets: [
                "Basics", "FileAccess", "Findings", "Captions", "CaptionQuality", "Transcripts", "MediaIO", "FlashDetection", "SyncAnalysis",
                "Autoplay", "Streaming", "Checks", "Library", "Reports",
            ]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // FFmpeg's headers; its libraries are opened on first use (Sources/CFFmpeg/Libraries.c), not linked.
        .target(name: "CFFmpeg"),
        .systemLibrary(
            name: "CPocketSphinx",
            pkgConfig: "pocketsphinx",
            providers: [.apt(["libpocketsphinx-dev", "libsphinxbase-dev", "pocketsphinx-en-us"])]
        ),
        .target(name: "Basics", exclude: ["Generators"], swiftSettings: optimisedInDebug),
        .target(name: "FileAccess"),
        .target(name: "MediaIO", dependencies: ["CFFmpeg", "FileAccess"], swiftSettings: optimisedInDebug),
        .target(name: "Findings", dependencies: ["Basics"]),
        .target(name: "Reports", dependencies: ["Basics", "Findings"]),
        .target(name: "Captions", dependencies: ["Basics", "FileAccess"], swiftSettings: optimisedInDebug),
        .target(name: "FlashDetection", swiftSettings: optimisedInDebug),
        .target(name: "Streaming", dependencies: ["Basics", "Captions", "FileAccess", "Findings"]),
        .target(name: "SyncAnalysis", dependencies: ["Basics", "Captions"], swiftSettings: optimisedInDebug),
        .target(name: "SpeechAlignment", dependencies: ["CPocketSphinx"], swiftSettings: optimisedInDebug),
        .target(name: "CaptionQuality", dependencies: ["Basics", "Captions", "Findings"]),
        .target(name: "Transcripts", dependencies: ["Basics", "Captions", "Findings"]),
        .target(name: "Autoplay", dependencies: ["Basics"], swiftSettings: optimisedInDebug),
        .target(
            name: "Checks",
            dependencies: [
                "Basics", "MediaIO", "Captions", "CaptionQuality", "FlashDetection", "SyncAnalysis", "Autoplay", "Findings", "FileAccess", "Streaming",
                "SpeechAlignment",
            ],
            exclude: ["Generators"]),
        .target(
            name: "Library",
            dependencies: [
                "Basics", "Checks", "MediaIO", "Captions", "Findings", "FileAccess", "Reports", "Streaming",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .executableTarget(
            name: "medialint",
            dependencies: [
                "Basics", "MediaIO", "Captions", "CaptionQuality", "Transcripts", "Autoplay", "FlashDetection", "Checks", "Library", "Findings", "Reports",
                "FileAccess", "Streaming",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(
            name: "MediaLintBench",
            dependencies: [
                "Basics", "MediaIO", "Captions", "CaptionQuality", "Transcripts", "Findings", "Reports", "Checks", "Library", "SyncAnalysis", "TestSupport",
            ]),
        .target(name: "TestSupport", dependencies: ["Basics", "Captions", "SyncAnalysis"], swiftSettings: optimisedInDebug),
        .target(name: "TestTraits"),
        .executableTarget(name: "CaptionsFuzzer", dependencies: ["Captions"]),
        .executableTarget(name: "MediaMutationSweep"),
        .executableTarget(name: "luma-timeline", dependencies: ["MediaIO"], path: "Examples/luma-timeline"),
        .testTarget(name: "MediaIOTests", dependencies: ["MediaIO", "TestSupport", "TestTraits"], exclude: ["Fixtures"]),
        .testTarget(name: "BasicsTests", dependencies: ["Basics", "TestSupport"]),
        .testTarget(name: "FindingsTests", dependencies: ["Basics", "Findings", "TestSupport"]),
        .testTarget(name: "ReportsTests", dependencies: ["Basics", "Findings", "Reports", "TestSupport", "TestTraits"], exclude: ["Fixtures"]),
        .testTarget(name: "CaptionsTests", dependencies: ["Basics", "Captions", "TestSupport", "TestTraits"], exclude: ["Fixtures"]),
        .testTarget(name: "FlashDetectionTests", dependencies: ["FlashDetection", "TestSupport"]),
        .testTarget(name: "SpeechAlignmentTests", dependencies: ["SpeechAlignment", "TestSupport", "TestTraits"]),
        .testTarget(name: "SyncAnalysisTests", dependencies: ["SyncAnalysis", "Captions", "TestSupport", "TestTraits"], exclude: ["Fixtures"]),
        .testTarget(name: "CaptionQualityTests", dependencies: ["CaptionQuality", "Captions", "Findings"], exclude: ["Fixtures"]),
        .testTarget(name: "TranscriptsTests", dependencies: ["Transcripts", "Captions"]),
        .testTarget(name: "AutoplayTests", dependencies: ["Autoplay", "Captions"]),
        .testTarget(
            name: "ChecksTests",
            dependencies: [
                "Basics", "Checks", "Findings", "MediaIO", "Captions", "CaptionQuality", "FlashDetection",
                "SyncAnalysis", "Autoplay", "FileAccess", "Streaming", "TestSupport", "TestTraits",
            ]),
        .testTarget(name: "LibraryTests", dependencies: ["Library", "Checks", "Findings", "MediaIO", "TestSupport", "TestTraits"]),
        .testTarget(name: "HouseRulesTests"),
        .testTarget(name: "StreamingTests", dependencies: ["Streaming", "Captions", "Findings"]),
        .testTarget(
            name: "MedialintCLITests",
            dependencies: [
                "medialint", "Basics", "Captions", "CaptionQuality", "Checks", "Findings", "Reports", "TestSupport", "TestTraits",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Yams", package: "Yams"),
            ], exclude: ["Fixtures"]),
    ]
)
