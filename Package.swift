// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "MediaLint",
    products: [
        .executable(name: "medialint", targets: ["medialint"]),
        .library(name: "MediaIO", targets: ["MediaIO"]),
        .library(name: "Reports", targets: ["Reports"]),
        .library(name: "Captions", targets: ["Captions"]),
        .library(name: "FlashDetection", targets: ["FlashDetection"]),
        .library(name: "SyncAnalysis", targets: ["SyncAnalysis"]),
        .library(name: "CaptionQuality", targets: ["CaptionQuality"]),
        .library(name: "Transcripts", targets: ["Transcripts"]),
        .library(name: "Autoplay", targets: ["Autoplay"]),
        .library(name: "LibraryCheck", targets: ["LibraryCheck"]),
        .library(name: "FileAccess", targets: ["FileAccess"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswresample-dev", "libswscale-dev"])]
        ),
        .target(name: "FileAccess"),
        .target(name: "MediaIO", dependencies: ["CFFmpeg", "FileAccess"]),
        .target(name: "Reports"),
        .target(name: "Captions", dependencies: ["FileAccess"]),
        .target(name: "FlashDetection"),
        .target(name: "SyncAnalysis", dependencies: ["Captions"]),
        .target(name: "CaptionQuality", dependencies: ["Captions"]),
        .target(name: "Transcripts", dependencies: ["Captions", "Reports"]),
        .target(name: "Autoplay"),
        .target(name: "LibraryCheck", dependencies: ["MediaIO", "Captions", "CaptionQuality", "FlashDetection", "SyncAnalysis", "Autoplay", "Reports", "FileAccess",
                                                     .product(name: "GRDB", package: "GRDB.swift")]),
        .executableTarget(
            name: "medialint",
            dependencies: ["MediaIO", "Captions", "CaptionQuality", "Transcripts", "Autoplay", "FlashDetection", "LibraryCheck", "Reports", "FileAccess",
                           .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "Yams", package: "Yams")]
        ),
        .executableTarget(name: "MediaLintBench", dependencies: ["MediaIO", "Captions", "CaptionQuality", "Transcripts", "Reports", "LibraryCheck", "TestSupport"]),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .executableTarget(name: "CaptionsFuzzer", dependencies: ["Captions"]),
        .executableTarget(name: "MediaMutationSweep"),
        .executableTarget(name: "luma-timeline", dependencies: ["MediaIO"], path: "Examples/luma-timeline"),
        .testTarget(name: "MediaIOTests", dependencies: ["MediaIO", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports"], exclude: ["Fixtures"]),
        .testTarget(name: "FlashDetectionTests", dependencies: ["FlashDetection", "LibraryCheck", "Reports", "TestSupport"]),
        .testTarget(name: "CaptionsTests", dependencies: ["Captions", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "SyncAnalysisTests",
                    dependencies: ["SyncAnalysis", "LibraryCheck", "Captions", "MediaIO", "Reports", "TestSupport"]),
        .testTarget(name: "CaptionQualityTests", dependencies: ["CaptionQuality", "Captions", "LibraryCheck", "Reports"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "TranscriptsTests", dependencies: ["Transcripts", "Captions"]),
        .testTarget(name: "AutoplayTests", dependencies: ["Autoplay", "LibraryCheck", "Reports", "MediaIO", "TestSupport"]),
        .testTarget(name: "MedialintCLITests", dependencies: ["medialint"], exclude: ["Fixtures"]),
    ]
)
