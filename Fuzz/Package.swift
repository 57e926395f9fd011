// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets, in their own package because they build with
// `-sanitize=fuzzer,address -parse-as-library` (see scripts/fuzz). Each target feeds
// arbitrary bytes to one parser of untrusted input; a crash, a hang or a broken
// invariant is a finding.
let fuzzTargets: [(name: String, product: String)] = [
    ("fuzz-icy", "Audio"), ("fuzz-playlist", "Audio"), ("fuzz-station-json", "RadioBrowser"),
    ("fuzz-config", "WavedialConfig"), ("fuzz-control", "Supervisor"),
    ("fuzz-hls-playlist", "Audio"), ("fuzz-mpegts", "Audio"), ("fuzz-fmp4", "Audio"), ("fuzz-id3", "Audio"),
]

let package = Package(
    name: "WavedialFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Wavedial", path: "..")],
    targets: [.target(name: "FuzzDriver")] + fuzzTargets.map { target in
        .executableTarget(
            name: target.name,
            dependencies: ["FuzzDriver", .product(name: target.product, package: "Wavedial")],
            swiftSettings: [.swiftLanguageMode(.v5)])
    }
)
