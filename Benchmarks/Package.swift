// swift-tools-version:6.1
import PackageDescription

// Benchmarks live in their own package so that the product's builds and CI do not compile them.
let package = Package(
    name: "WavedialBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Wavedial", path: "..")],
    targets: [
        .executableTarget(
            name: "catalog-bench",
            dependencies: [.product(name: "WavedialCore", package: "Wavedial")],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(
            name: "knob-bench",
            dependencies: [.product(name: "Supervisor", package: "Wavedial")],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(
            name: "hls-demux-bench",
            dependencies: [.product(name: "Audio", package: "Wavedial")],
            swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)
