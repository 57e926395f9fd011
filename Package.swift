// swift-tools-version:6.0
import PackageDescription

// The libraries and the executables build in the Swift 6 language mode, so the compiler checks their
// data-race safety; the tests are still in 5.
let swift5: [SwiftSetting] = [.swiftLanguageMode(.v5)]
let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "Wavedial",
    products: [
        .executable(name: "wavedial", targets: ["wavedial"]),
        .executable(name: "wavediald", targets: ["wavediald"]),
        .executable(name: "wavedial-player", targets: ["wavedial-player"]),
        // Libraries for the packages in bench/ and Fuzz/.
        .library(name: "WavedialCore", targets: ["WavedialCore"]),
        .library(name: "RadioBrowser", targets: ["RadioBrowser"]),
        .library(name: "Supervisor", targets: ["Supervisor"]),
        .library(name: "WavedialControl", targets: ["WavedialControl"]),
        .library(name: "Audio", targets: ["Audio"]),
        .library(name: "WavedialConfig", targets: ["WavedialConfig"]),
        .library(name: "PrintableText", targets: ["PrintableText"]),
        .library(name: "Display", targets: ["Display"]),
        .library(name: "Hardware", targets: ["Hardware"]),
        .library(name: "ApplianceSetup", targets: ["ApplianceSetup"]),
        // For gpio-bench, which makes its gpio-sim chip as the tests do.
        .library(name: "WavedialTestSupport", targets: ["WavedialTestSupport"]),
    ],
    // Tools 6.0 and these minimums are what Debian 13's Swift 6.0.3 can build and resolve: SwiftPM
    // skips versions whose manifests need a newer Swift (GRDB from 7.9 and swift-log from 1.12 do).
    // GRDB 7.6 brought the throwing row accessors Station reads with.
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // System libraries (module.modulemap + shim.h, found through pkg-config).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CAlsa", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CMpg123", pkgConfig: "libmpg123", providers: [.apt(["libmpg123-dev"])]),
        .systemLibrary(name: "CFaad", pkgConfig: "faad2", providers: [.apt(["libfaad-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CGpiod", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        .systemLibrary(name: "COgg", pkgConfig: "ogg", providers: [.apt(["libogg-dev"])]),
        .systemLibrary(name: "COpus", pkgConfig: "opus", providers: [.apt(["libopus-dev"])]),
        .systemLibrary(name: "CVorbis", pkgConfig: "vorbis", providers: [.apt(["libvorbis-dev"])]),
        .systemLibrary(name: "CFLAC", pkgConfig: "flac", providers: [.apt(["libflac-dev"])]),
        .systemLibrary(name: "CEbur128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .systemLibrary(name: "CResolv"),
        .systemLibrary(name: "CI2CDev"),
        .systemLibrary(name: "CThreadName"),
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "CEvdev"),

        // libcurl's thin Swift wrapper, shared by the catalog sync and the audio source.
        .target(name: "CurlSupport", dependencies: ["CCurl", "CResolv", "Threads"], swiftSettings: swift6),
        .target(name: "Threads", dependencies: ["CThreadName"], swiftSettings: swift6),
        // Text from outside (stations, mirrors, imported files) made safe for a terminal or the LCD;
        // below both Audio (no Foundation) and RadioBrowser, so they share one cleaner.
        .target(name: "PrintableText", swiftSettings: swift6),

        .target(
            name: "WavedialCore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Logging", package: "swift-log"),
                "PrintableText",
            ],
            swiftSettings: swift6),
        .target(
            name: "RadioBrowser",
            dependencies: ["WavedialCore", "PrintableText", "CurlSupport", "CResolv", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swift6),
        .target(
            name: "Audio",
            dependencies: ["CurlSupport", "Threads", "PrintableText", "CMpg123", "CFaad", "COgg", "COpus", "CVorbis", "CFLAC", "CEbur128", "CAlsa",
                           "CCrypto", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swift6),
        .target(
            name: "Hardware",
            dependencies: ["CGpiod", "CI2CDev", "CEvdev", "Threads", "PrintableText", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swift6),
        .target(
            name: "Display",
            dependencies: ["Hardware", "Threads"],
            swiftSettings: swift6),
        .target(
            name: "WavedialConfig",
            dependencies: ["WavedialCore", "Audio", "CurlSupport", "Hardware", "Display", "PrintableText"],
            swiftSettings: swift6),
        // The control protocol: the typed commands, the status, the wire and the client. What the CLI
        // links to talk to the daemon, instead of the daemon itself.
        // `wavedial setup apply`: the SD-card image's first-boot settings file, checked whole, then applied.
        .target(
            name: "ApplianceSetup",
            dependencies: ["WavedialCore", "PrintableText", "CCrypto", .product(name: "TOMLKit", package: "TOMLKit")],
            swiftSettings: swift6),
        .target(
            name: "WavedialControl",
            dependencies: ["WavedialCore", "PrintableText", "CurlSupport", "Threads"],
            swiftSettings: swift6),
        .target(
            name: "Supervisor",
            dependencies: ["WavedialCore", "WavedialConfig", "WavedialControl", "RadioBrowser", "Audio", "Hardware", "Display", "CurlSupport", "Threads",
                           "PrintableText", "ApplianceSetup", "CMalloc", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swift6),
        .executableTarget(
            name: "wavediald",
            dependencies: ["Supervisor", "WavedialConfig", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: swift6),
        .executableTarget(
            name: "wavedial-player",
            dependencies: ["Audio"],
            swiftSettings: swift6),
        .executableTarget(
            name: "wavedial",
            dependencies: ["WavedialCore", "WavedialConfig", "WavedialControl", "RadioBrowser", "Audio", "Hardware", "Display",
                           "PrintableText", "ApplianceSetup", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swift6),

        // Test doubles and loopback peers shared by the test targets; never linked into the executables.
        .target(
            name: "WavedialTestSupport",
            dependencies: ["WavedialCore", "Hardware", "Display", "CurlSupport", "Threads", "CEvdev"],
            swiftSettings: swift6),

        .testTarget(name: "WavedialCoreTests", dependencies: ["WavedialCore", "WavedialTestSupport"], swiftSettings: swift5),
        .testTarget(name: "WavedialConfigTests", dependencies: ["WavedialConfig", "WavedialTestSupport"], swiftSettings: swift5),
        .testTarget(name: "RadioBrowserTests", dependencies: ["RadioBrowser", "WavedialTestSupport"], swiftSettings: swift5),
        .testTarget(name: "AudioTests", dependencies: ["Audio", "WavedialTestSupport"], exclude: ["Fixtures"], swiftSettings: swift5),
        .testTarget(name: "PrintableTextTests", dependencies: ["PrintableText"], swiftSettings: swift5),
        .testTarget(name: "ThreadsTests", dependencies: ["Threads"], swiftSettings: swift5),
        .testTarget(name: "CurlSupportTests", dependencies: ["CurlSupport", "WavedialTestSupport"], swiftSettings: swift5),
        .testTarget(name: "HardwareTests", dependencies: ["Hardware", "WavedialTestSupport"], swiftSettings: swift5),
        .testTarget(name: "DisplayTests", dependencies: ["Display", "WavedialTestSupport"], swiftSettings: swift5),
        .testTarget(name: "ApplianceSetupTests", dependencies: ["ApplianceSetup", "WavedialConfig", "WavedialTestSupport"],
                    swiftSettings: swift5),
        .testTarget(name: "WavedialControlTests", dependencies: ["WavedialControl", "WavedialTestSupport"], swiftSettings: swift5),
        .testTarget(name: "SupervisorTests", dependencies: ["Supervisor", "ApplianceSetup", "WavedialControl", "WavedialTestSupport"], swiftSettings: swift5),
        // Black box (the built binaries), plus the demo band's station table to check what they play.
        .testTarget(name: "IntegrationTests", dependencies: ["WavedialTestSupport", "WavedialControl", "Supervisor"], swiftSettings: swift5),
    ]
)
