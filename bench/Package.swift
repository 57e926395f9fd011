// swift-tools-version:6.0
import PackageDescription

// Every Swift benchmark, in a package of its own so that the product's builds and CI do not compile
// them; the scripts beside (bench/*/run.sh) build the one they drive with `--package-path bench`.
let swift5: [SwiftSetting] = [.swiftLanguageMode(.v5)]

let package = Package(
    name: "WavedialBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Wavedial", path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // Nearby/search/dial latency on a synced catalog (bench/catalog/run.sh).
        .executableTarget(name: "catalog-bench", dependencies: [.product(name: "WavedialCore", package: "Wavedial")],
                          swiftSettings: swift5),
        // Detent → last LCD byte through the controller (bench/daemon/run.sh).
        .executableTarget(name: "knob-bench", dependencies: [.product(name: "Supervisor", package: "Wavedial")],
                          swiftSettings: swift5),
        // HLS segment demuxing CPU time (bench/hls/run.sh).
        .executableTarget(name: "hls-demux-bench", dependencies: [.product(name: "Audio", package: "Wavedial")],
                          swiftSettings: swift5),
        // LCD bus cost per frame (bytes and I2C milliseconds); prints a table for docs/BENCHMARKS.md.
        .executableTarget(
            name: "lcd-bench",
            dependencies: [.product(name: "Hardware", package: "Wavedial"), .product(name: "Display", package: "Wavedial")],
            swiftSettings: swift5),
        // Decoding CPU time of a file, fed as the audio thread feeds (bench/decoders: run.sh, ogg.sh against ffmpeg).
        .executableTarget(name: "decoder-bench", dependencies: [.product(name: "Audio", package: "Wavedial")],
                          swiftSettings: swift5),
        // The input path on gpio-sim in the gpio-vm guest (bench/gpio/run.sh).
        .executableTarget(
            name: "gpio-bench",
            dependencies: [.product(name: "Hardware", package: "Wavedial"), .product(name: "WavedialTestSupport", package: "Wavedial"),
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: swift5),
    ]
)
