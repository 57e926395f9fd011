import Foundation
import WavedialCore
import XCTest

@testable import RadioBrowser

final class RadioBrowserStationTests: XCTestCase {
    private func decode(_ json: String) throws -> Station {
        try RadioBrowserStation.decode(Array(json.utf8))
    }

    func testDecodesARadioBrowserRecord() throws {
        let station = try decode("""
            {"changeuuid":"c","stationuuid":"960C5A4C-0601-11E8-AE97-52543BE04C81","name":" Radio Bob 101.5 ",
             "url":"http://stream.example/bob","url_resolved":"http://edge.example/bob.mp3","homepage":"https://bob.example",
             "favicon":"","tags":"rock,classic rock","country":"Germany","countrycode":"de","state":"Hessen",
             "language":"german","languagecodes":"de","votes":1234,"lastchangetime":"2024-01-01 10:00:00",
             "lastchangetime_iso8601":"2024-01-01T10:00:00Z","codec":"MP3","bitrate":128,"hls":0,"lastcheckok":1,
             "clickcount":99,"geo_lat":50.1,"geo_long":8.6,"has_extended_info":false}
            """)
        XCTAssertEqual(station.stationuuid, "960c5a4c-0601-11e8-ae97-52543be04c81")
        XCTAssertEqual(station.name, "Radio Bob 101.5")
        XCTAssertEqual(station.urlResolved, "http://edge.example/bob.mp3")
        XCTAssertEqual(station.countrycode, "DE")
        XCTAssertEqual(station.bitrate, 128)
        XCTAssertFalse(station.hls)
        XCTAssertTrue(station.lastcheckok)
        XCTAssertEqual(station.coordinate?.latitude, 50.1)
        XCTAssertEqual(station.lastchangetime, "2024-01-01T10:00:00Z")
        XCTAssertTrue(station.isPlayable)
    }

    func testOddTypesAndMissingFieldsDoNotLoseTheStation() throws {
        let station = try decode("""
            {"stationuuid":"00000000-0000-4000-8000-00000000000a","name":"","url":"http://s","bitrate":"96","votes":1.0e3,"hls":true,"lastcheckok":0,
             "geo_lat":null,"geo_long":"12.5","tags":null,"codec":42}
            """)
        XCTAssertEqual(station.name, "http://s", "a nameless station is named by its URL")
        XCTAssertEqual(station.bitrate, 96)
        XCTAssertEqual(station.votes, 1000)
        XCTAssertTrue(station.hls)
        XCTAssertFalse(station.lastcheckok)
        XCTAssertNil(station.geoLat)
        XCTAssertEqual(station.geoLong, 12.5)
        XCTAssertEqual(station.codec, "42")
        XCTAssertFalse(station.isPlayable)
    }

    func testImpossiblePositionsControlCharactersAndOverlongNamesAreRepaired() throws {
        func repaired(_ json: String) throws -> (station: Station, repaired: Bool) {
            try RadioBrowserStation.decodeRepairing(Array(json.utf8))
        }
        for (lat, lon) in [("52.5", "-273"), ("1e9", "13.4"), ("\"NaN\"", "\"nan\""), ("\"Infinity\"", "\"-inf\""),
                           ("\"north\"", "[1]"), ("-90.5", "180.01")] {
            let result = try repaired(#"{"stationuuid":"00000000-0000-4000-8000-00000000000a","name":"P","url":"http://s","geo_lat":\#(lat),"geo_long":\#(lon)}"#)
            XCTAssertTrue(result.repaired, "\(lat), \(lon)")
            XCTAssertFalse(result.station.geoLat.map { !$0.isFinite || abs($0) > 90 } ?? false, "\(lat)")
            XCTAssertFalse(result.station.geoLong.map { !$0.isFinite || abs($0) > 180 } ?? false, "\(lon)")
        }
        let edge = try repaired(#"{"stationuuid":"00000000-0000-4000-8000-00000000000a","name":"Edge","url":"http://s","geo_lat":-90,"geo_long":"180"}"#)
        XCTAssertFalse(edge.repaired)
        XCTAssertEqual(edge.station.geoLat, -90)
        XCTAssertEqual(edge.station.geoLong, 180)
        let controls = try repaired(#"{"stationuuid":"00000000-0000-4000-8000-00000000000a","name":"A\u0000B\u001b[2JC\u202eD\u0085","url":"http://s","tags":"x\ty"}"#)
        XCTAssertTrue(controls.repaired)
        XCTAssertEqual(controls.station.name, "A B [2JCD")
        XCTAssertEqual(controls.station.tags, "x y")
        let long = try repaired(#"{"stationuuid":"00000000-0000-4000-8000-00000000000a","name":"\#(String(repeating: "Ω", count: 10_000))","url":"http://s"}"#)
        XCTAssertTrue(long.repaired)
        XCTAssertEqual(long.station.name, String(repeating: "Ω", count: RadioBrowserStation.maximumNameLength - 1) + "…")
        XCTAssertFalse(try repaired(#"{"stationuuid":"00000000-0000-4000-8000-00000000000a","name":"Plain Ünïcode 東京","url":"http://s"}"#).repaired)
    }

    /// Radio Browser's stationuuid is a UUID; anything else is no identity the radio can keep a favorite,
    /// a frequency or a click report under.
    func testAStationuuidMustBeAUUID() throws {
        XCTAssertEqual(try decode(#"{"stationuuid":" 960C5A4C-0601-11E8-AE97-52543BE04C81 ","url":"http://s"}"#).stationuuid,
                       "960c5a4c-0601-11e8-ae97-52543be04c81")
        for uuid in ["x", "keep", "960c5a4c060111e8ae9752543be04c81", "{960c5a4c-0601-11e8-ae97-52543be04c81}",
                     "960c5a4c-0601-11e8-ae97-52543be04c8", "960c5a4c-0601-11e8-ae97-52543be04c811", "960c5a4c-0601-11e8-ae97_52543be04c81",
                     "960c5a4g-0601-11e8-ae97-52543be04c81", "960c5a4c-0601-11e8-ae97-52543be04c8\\u0000", "../../../../etc/passwd",
                     "960c5a4c-0601-11e8-ae97-52543be04c８1", String(repeating: "a", count: 100_000)] {
            XCTAssertThrowsError(try decode(#"{"stationuuid":"\#(uuid)","name":"N","url":"http://s"}"#), uuid) {
                XCTAssertEqual($0 as? RadioBrowserStation.RecordError, .invalid("stationuuid"), uuid)
            }
        }
        XCTAssertThrowsError(try decode(#"{"stationuuid":42,"url":"http://s"}"#))
    }

    /// Texts longer than Radio Browser's own columns (with room for the longest real values) are cut or
    /// dropped, and the record says it was repaired; a stream URL too long to be one loses the record.
    func testOverlongFieldsAreCutOrDroppedAndAnOverlongURLLosesTheRecord() throws {
        typealias L = RadioBrowserStation.FieldLimits
        let uuid = "00000000-0000-4000-8000-00000000000b"
        func record(_ fields: [String: String]) throws -> (station: Station, repaired: Bool) {
            var object: [String: String] = ["stationuuid": uuid, "name": "N", "url": "http://s"]
            object.merge(fields) { _, new in new }
            return try RadioBrowserStation.decodeRepairing(Array(try JSONSerialization.data(withJSONObject: object)))
        }
        let longURL = "http://s/" + String(repeating: "t", count: L.url)
        XCTAssertThrowsError(try record(["url": longURL])) {
            XCTAssertEqual($0 as? RadioBrowserStation.RecordError, .invalid("url"))
        }
        let realLong = "http://s/" + String(repeating: "t", count: 5_800)
        XCTAssertEqual(try record(["url": realLong, "url_resolved": realLong]).station.urlResolved, realLong, "real token URLs stay")

        let tags = (0..<300).map { "tag\($0)" }.joined(separator: ",")
        let hostile = try record([
            "url_resolved": longURL, "homepage": "https://h/" + String(repeating: "h", count: L.link),
            "favicon": "https://f/" + String(repeating: "f", count: L.link), "tags": tags,
            "country": String(repeating: "C", count: 10_000), "state": String(repeating: "S", count: 300),
            "language": String(repeating: "german,", count: 100), "languagecodes": String(repeating: "de,", count: 200),
            "codec": "MP3," + String(repeating: "X", count: 30), "countrycode": "DEU",
            "lastchangetime_iso8601": String(repeating: "2", count: 100),
        ])
        XCTAssertTrue(hostile.repaired)
        let station = hostile.station
        XCTAssertEqual(station.urlResolved, "")
        XCTAssertEqual(station.homepage, "")
        XCTAssertEqual(station.favicon, "")
        XCTAssertLessThanOrEqual(station.tags.count, L.tags)
        XCTAssertTrue(tags.hasPrefix(station.tags + ","), "cut after a whole tag: \(station.tags.suffix(20))")
        XCTAssertEqual(station.country.count, L.place)
        XCTAssertEqual(station.state.count, L.place)
        XCTAssertLessThanOrEqual(station.language.count, L.place)
        XCTAssertTrue(station.language.hasSuffix("german"), station.language)
        XCTAssertLessThanOrEqual(station.languagecodes.count, L.place)
        XCTAssertEqual(station.codec, "", "the player finds out")
        XCTAssertEqual(station.countrycode, "")
        XCTAssertEqual(station.lastchangetime, "")

        let plain = try record(["tags": "rock,pop", "country": "Germany", "codec": "AAC,H.264", "countrycode": "de",
                                "homepage": "https://" + String(repeating: "h", count: 1_300)])
        XCTAssertFalse(plain.repaired)
        XCTAssertEqual(plain.station.codec, "AAC,H.264")
    }

    func testRecordsWithoutIdentityOrURLAreRejected() {
        XCTAssertThrowsError(try decode(#"{"name":"No uuid","url":"http://s"}"#)) {
            XCTAssertEqual($0 as? RadioBrowserStation.RecordError, .missing("stationuuid"))
        }
        XCTAssertThrowsError(try decode(#"{"stationuuid":"00000000-0000-4000-8000-00000000000a","name":"No url","url":"  "}"#)) {
            XCTAssertEqual($0 as? RadioBrowserStation.RecordError, .missing("url"))
        }
        XCTAssertThrowsError(try decode(#"{"stationuuid": ,,, }"#)) {
            XCTAssertEqual($0 as? RadioBrowserStation.RecordError, .malformed)
        }
    }
}
