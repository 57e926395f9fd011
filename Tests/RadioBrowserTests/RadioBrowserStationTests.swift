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
