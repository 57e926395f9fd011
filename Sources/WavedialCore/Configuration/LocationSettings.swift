/// `[location]`: where the radio stands, which decides the stations on the dial.
public struct LocationSettings: Sendable, Equatable {
    /// The configured position; `nil` until set here or with `wavedial location set`.
    public var coordinate: Coordinate?
    /// ISO 3166-1 alpha-2 code (`DE`) whose stations fill the dial when too few have coordinates.
    public var countryCode: String?

    public init(coordinate: Coordinate? = nil, countryCode: String? = nil) {
        self.coordinate = coordinate
        self.countryCode = countryCode
    }

    /// Reads `[location]`, recording problems in the section's file.
    public init(_ section: ConfigSection) {
        let latitude = section.optionalDouble("latitude", range: -90...90)
        let longitude = section.optionalDouble("longitude", range: -180...180)
        if let latitude, let longitude {
            coordinate = Coordinate(latitude: latitude, longitude: longitude)
        } else if (latitude == nil) != (longitude == nil) {
            section.report(latitude == nil ? "latitude" : "longitude", "is needed too: set both latitude and longitude")
        }
        if let country = section.optionalString("country") {
            let code = country.trimmingCharacters(in: .whitespaces).uppercased()
            if code.count == 2, code.allSatisfy({ $0.isASCII && $0.isLetter }) {
                countryCode = code
            } else {
                section.report("country", "must be a two-letter country code such as \"DE\", not \"\(country)\"")
            }
        }
    }
}

import Foundation
