// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets, in their own package because they build with
// `-sanitize=fuzzer,address -parse-as-library` (see scripts/fuzz). Each target feeds
// arbitrary bytes to one parser of untrusted input; a crash, a hang or a broken
// invariant is a finding.
let fuzzTargets: [(name: String, product: String)] = [
    ("fuzz-icy", "Audio"), ("fuzz-playlist", "Audio"), ("fuzz-adts", "Audio"), ("fuzz-station-json", "RadioBrowser"),
    ("fuzz-splice", "Audio"), ("fuzz-stream-response", "Audio"),
    ("fuzz-config", "WavedialConfig"), ("fuzz-control", "Supervisor"), ("fuzz-ogg", "Audio"), ("fuzz-flac", "Audio"),
    ("fuzz-hls-playlist", "Audio"), ("fuzz-mpegts", "Audio"), ("fuzz-fmp4", "Audio"), ("fuzz-id3", "Audio"),
    ("fuzz-sniff", "Audio"), ("fuzz-address", "Audio"), ("fuzz-demo-request", "Supervisor"),
    // Text from outside: an imported favorites file, a DNS answer, names for the LCD and the dial, a search.
    ("fuzz-favorites-file", "WavedialCore"), ("fuzz-srv-record", "RadioBrowser"), ("fuzz-rom-transliterator", "Display"),
    ("fuzz-stated-frequency", "WavedialCore"), ("fuzz-search", "WavedialCore"),
    // The clock radio's sleep times, alarm times and days.
    ("fuzz-clock", "WavedialCore"),
    // The IR receiver's input device (evdev records) through the remote's key map to the radio's intents.
    ("fuzz-evdev", "Supervisor"),
    // The MPD server's requests from a client, through the session to the responder's answers.
    ("fuzz-mpd-command", "Supervisor"),
    // The web page's HTTP requests through its routes (the JSON API, the login, the page).
    ("fuzz-web", "Supervisor"),
    // The SD card's first-boot settings file, which anyone with the card can edit.
    ("fuzz-setup-file", "ApplianceSetup"),
    // The Wi-Fi networks around the radio (`iw` scan output, names from the air) for the setup page.
    ("fuzz-wifi-scan", "ApplianceSetup"),
]
// The targets that drive an AudioDecoder, through DecoderFuzzing's loop and checks.
let decoderTargets: Set<String> = ["fuzz-ogg", "fuzz-flac"]
// The targets that speak the control protocol's types to the daemon's parts.
let controlTargets: Set<String> = ["fuzz-control", "fuzz-mpd-command", "fuzz-web"]

let package = Package(
    name: "WavedialFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Wavedial", path: "..")],
    targets: [
        .target(name: "FuzzDriver"),
        .target(name: "DecoderFuzzing", dependencies: [.product(name: "Audio", package: "Wavedial")],
                swiftSettings: [.swiftLanguageMode(.v5)]),
    ] + fuzzTargets.map { target in
        .executableTarget(
            name: target.name,
            dependencies: ["FuzzDriver", .product(name: target.product, package: "Wavedial")]
                + (decoderTargets.contains(target.name) ? ["DecoderFuzzing"] : [])
                + (controlTargets.contains(target.name) ? [.product(name: "WavedialControl", package: "Wavedial")] : []),
            swiftSettings: [.swiftLanguageMode(.v5)])
    }
)
