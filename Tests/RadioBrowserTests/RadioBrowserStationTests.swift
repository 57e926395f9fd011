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
            {"stationuuid":"x","name":"","url":"http://s","bitrate":"96","votes":1.0e3,"hls":true,"lastcheckok":0,
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
            let result = try repaired(#"{"stationuuid":"x","name":"P","url":"http://s","geo_lat":\#(lat),"geo_long":\#(lon)}"#)
            XCTAssertTrue(result.repaired, "\(lat), \(lon)")
            XCTAssertFalse(result.station.geoLat.map { !$0.isFinite || abs($0) > 90 } ?? false, "\(lat)")
            XCTAssertFalse(result.station.geoLong.map { !$0.isFinite || abs($0) > 180 } ?? false, "\(lon)")
        }
        let edge = try repaired(#"{"stationuuid":"x","name":"Edge","url":"http://s","geo_lat":-90,"geo_long":"180"}"#)
        XCTAssertFalse(edge.repaired)
        XCTAssertEqual(edge.station.geoLat, -90)
        XCTAssertEqual(edge.station.geoLong, 180)
        let controls = try repaired(#"{"stationuuid":"x","name":"A\u0000B\u001b[2JC\u202eD\u0085","url":"http://s","tags":"x\ty"}"#)
        XCTAssertTrue(controls.repaired)
        XCTAssertEqual(controls.station.name, "A B [2JCD")
        XCTAssertEqual(controls.station.tags, "x y")
        let long = try repaired(#"{"stationuuid":"x","name":"\#(String(repeating: "Ω", count: 10_000))","url":"http://s"}"#)
        XCTAssertTrue(long.repaired)
        XCTAssertEqual(long.station.name, String(repeating: "Ω", count: RadioBrowserStation.maximumNameLength - 1) + "…")
        XCTAssertFalse(try repaired(#"{"stationuuid":"x","name":"Plain Ünïcode 東京","url":"http://s"}"#).repaired)
    }

    func testRecordsWithoutIdentityOrURLAreRejected() {
        XCTAssertThrowsError(try decode(#"{"name":"No uuid","url":"http://s"}"#)) {
            XCTAssertEqual($0 as? RadioBrowserStation.RecordError, .missing("stationuuid"))
        }
        XCTAssertThrowsError(try decode(#"{"stationuuid":"x","name":"No url","url":"  "}"#)) {
            XCTAssertEqual($0 as? RadioBrowserStation.RecordError, .missing("url"))
        }
        XCTAssertThrowsError(try decode(#"{"stationuuid": ,,, }"#)) {
            XCTAssertEqual($0 as? RadioBrowserStation.RecordError, .malformed)
        }
    }
}
