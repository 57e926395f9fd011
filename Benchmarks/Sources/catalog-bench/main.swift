import Foundation
import WavedialCore

// Query latency of a synced catalog: nearby and search, as the dial and the CLI run them.
// Usage: catalog-bench DATABASE [ITERATIONS]

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

func measure(_ name: String, iterations: Int, _ body: (Int) throws -> Int) rethrows {
    var samples: [Double] = []
    var results = 0
    for i in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        results += try body(i)
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    samples.sort()
    print(String(format: "%-34@ p50 %7.3f ms   p99 %7.3f ms   max %7.3f ms   (%d runs, %.1f results/run)",
                 name as NSString, percentile(samples, 0.5), percentile(samples, 0.99), samples.last!, iterations,
                 Double(results) / Double(iterations)))
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: catalog-bench DATABASE [ITERATIONS]\n".utf8))
    exit(64)
}
let iterations = arguments.count > 2 ? Int(arguments[2]) ?? 300 : 300
let database = try WavedialDatabase.open(path: arguments[1])
print("catalog: \(try database.stationCount()) stations")

var random = SystemRandomNumberGenerator()
let cities = [(52.52, 13.405), (48.85, 2.35), (40.71, -74.0), (-23.55, -46.63), (35.68, 139.69), (-33.87, 151.2),
              (-18.1, 178.4), (64.1, -21.9), (0.0, 0.0), (-54.8, -68.3)]
try measure("nearby 60 (10 cities, jittered)", iterations: iterations) { i in
    let city = cities[i % cities.count]
    let place = Coordinate(latitude: city.0 + .random(in: -0.5...0.5, using: &random),
                           longitude: city.1 + .random(in: -0.5...0.5, using: &random))
    return try database.nearby(place, countryCode: "DE", limit: 60, radiusKm: 250).count
}
let queries: [StationQuery] = [
    .init(text: "radio"), .init(text: "jazz"), .init(text: "cafe"), .init(text: "bbc radio"), .init(text: "fm"),
    .init(tag: "rock"), .init(text: "radio", country: "DE"), .init(country: "Germany"), .init(language: "english"),
    .init(text: "classic", tag: "pop", country: "US"), .init(text: "z"),
]
try measure("search (11 kinds, limit 20)", iterations: iterations) { i in
    try database.search(queries[i % queries.count]).count
}
var settings = DialSettings()
try measure("dial band (nearby 60 + plan + store)", iterations: max(10, iterations / 10)) { i in
    let city = cities[i % 2]
    return try database.nearbyBand(location: Coordinate(latitude: city.0, longitude: city.1), countryCode: "DE",
                                   settings: settings).band.entries.count
}
_ = settings
