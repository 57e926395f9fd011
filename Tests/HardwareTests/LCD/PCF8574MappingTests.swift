import Hardware
import XCTest

final class PCF8574MappingTests: XCTestCase {
    func testCommonMappingPutsTheNibbleOnTheHighHalf() {
        let byte = PCF8574Mapping.common.portByte(nibble: 0xA, registerSelect: true, enable: true, backlightOn: true)
        XCTAssertEqual(byte, 0xA0 | 0x01 | 0x04 | 0x08)
        XCTAssertEqual(PCF8574Mapping.common.nibble(in: byte), 0xA)
    }

    func testParsesPresetsAndPinLists() throws {
        XCTAssertEqual(try PCF8574Mapping(parsing: "common"), .common)
        XCTAssertEqual(try PCF8574Mapping(parsing: "MJKDZ"), .mjkdz)
        let parsed = try PCF8574Mapping(parsing: "rs=p6, rw=5, e=4, bl=7, d4=0, d5=1, d6=2, d7=3, bl-low")
        XCTAssertEqual(parsed, .mjkdz)
        XCTAssertEqual(try PCF8574Mapping(parsing: parsed.description), parsed)
    }

    func testRejectsMappingsThatReuseOrMissABit() {
        XCTAssertThrowsError(try PCF8574Mapping(parsing: "rs=0,rw=0,e=2,bl=3,d4=4,d5=5,d6=6,d7=7"))
        XCTAssertThrowsError(try PCF8574Mapping(parsing: "rs=0,rw=1,e=2,bl=3,d4=4,d5=5,d6=6"))
        XCTAssertThrowsError(try PCF8574Mapping(parsing: "rs=0,rw=1,e=2,bl=3,d4=4,d5=5,d6=6,d7=9"))
        XCTAssertThrowsError(try PCF8574Mapping(parsing: "backwards"))
    }
}
