import CEvdev
import Hardware
import XCTest

/// evdev records as the kernel lays them out (`struct input_event` of this machine's C headers).
final class EvdevEventTests: XCTestCase {
    private func bytes(of records: [input_event]) -> [UInt8] {
        records.flatMap { record in withUnsafeBytes(of: record) { Array($0) } }
    }

    private func record(_ type: Int32, _ code: Int32, _ value: Int32) -> input_event {
        var record = input_event()
        record.time.tv_sec = 0x7fff_ffff
        record.time.tv_usec = 999_999
        record.type = UInt16(type)
        record.code = UInt16(code)
        record.value = value
        return record
    }

    func testRecordsAreReadAtTheCHeadersLayout() {
        XCTAssertEqual(EvdevEvent.size, MemoryLayout<input_event>.size)
        let data = bytes(of: [record(EV_KEY, KEY_VOLUMEUP, 1), record(EV_SYN, SYN_REPORT, 0), record(EV_KEY, KEY_NUMERIC_9, -2)])
        let events = data.withUnsafeBytes { EvdevEvent.records(in: $0) }
        XCTAssertEqual(events, [
            EvdevEvent(type: EvdevEvent.key, code: UInt16(KEY_VOLUMEUP), value: 1),
            EvdevEvent(type: EvdevEvent.synchronization, code: EvdevEvent.report, value: 0),
            EvdevEvent(type: EvdevEvent.key, code: UInt16(KEY_NUMERIC_9), value: -2),
        ])
        XCTAssertEqual(EvdevEvent.dropped, UInt16(SYN_DROPPED))
    }

    func testAPartialRecordIsLeftOut() {
        let data = bytes(of: [record(EV_KEY, KEY_MUTE, 1), record(EV_KEY, KEY_MUTE, 0)])
        for cut in [0, 1, EvdevEvent.size - 1, EvdevEvent.size, EvdevEvent.size + 7, data.count - 1] {
            let events = Array(data.prefix(cut)).withUnsafeBytes { EvdevEvent.records(in: $0) }
            XCTAssertEqual(events.count, cut / EvdevEvent.size, "\(cut) bytes")
        }
    }
}
