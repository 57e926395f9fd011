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
// Places with their country: dense and sparse, across the antimeridian, mid-ocean, far south.
let cities: [(String, Double, Double, String)] = [
    ("Berlin", 52.52, 13.405, "DE"), ("Paris", 48.85, 2.35, "FR"), ("New York", 40.71, -74.0, "US"),
    ("Sao Paulo", -23.55, -46.63, "BR"), ("Tokyo", 35.68, 139.69, "JP"), ("Sydney", -33.87, 151.2, "AU"),
    ("Suva", -18.1, 178.4, "FJ"), ("Reykjavik", 64.1, -21.9, "IS"), ("Gulf of Guinea", 0.5, 0.5, "GH"),
    ("Ushuaia", -54.8, -68.3, "AR"),
]
for city in cities {
    try measure("nearby 60: \(city.0)", iterations: iterations / 10) { _ in
        let place = Coordinate(latitude: city.1 + .random(in: -0.5...0.5, using: &random),
                               longitude: city.2 + .random(in: -0.5...0.5, using: &random))
        return try database.nearby(place, countryCode: city.3, limit: 60, radiusKm: 250).count
    }
}
try measure("nearby 60 (all 10 places)", iterations: iterations) { i in
    let city = cities[i % cities.count]
    let place = Coordinate(latitude: city.1 + .random(in: -0.5...0.5, using: &random),
                           longitude: city.2 + .random(in: -0.5...0.5, using: &random))
    return try database.nearby(place, countryCode: city.3, limit: 60, radiusKm: 250).count
}
let queries: [StationQuery] = [
    .init(text: "radio"), .init(text: "jazz"), .init(text: "cafe"), .init(text: "bbc radio"), .init(text: "fm"),
    .init(tag: "rock"), .init(text: "radio", country: "DE"), .init(country: "Germany"), .init(language: "english"),
    .init(text: "classic", tag: "pop", country: "US"), .init(text: "z"),
]
for query in queries {
    try measure("search \(query.text) \(query.tag ?? "") \(query.country ?? "") \(query.language ?? "")", iterations: 20) { _ in
        try database.search(query).count
    }
}
try measure("search (11 kinds, limit 20)", iterations: iterations) { i in
    try database.search(queries[i % queries.count]).count
}
var settings = DialSettings()
try measure("dial band (nearby 60 + plan + store)", iterations: max(10, iterations / 10)) { i in
    let city = cities[i % 2]
    let (plan, _) = try database.planNearbyBand(location: Coordinate(latitude: city.1, longitude: city.2), countryCode: city.3,
                                                settings: settings)
    try database.storeDialPlan(plan)
    return plan.band.entries.count
}
_ = settings
