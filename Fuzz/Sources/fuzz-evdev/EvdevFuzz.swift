import FuzzDriver
import Hardware
import Supervisor

/// The IR receiver's bytes as a hostile or broken input device might send them: read as whole
/// `input_event` records, decoded by the default key map and repeat policy, and turned into the radio's
/// intents. Every record is taken or the partial tail dropped; a held key (value 2) only ever repeats the
/// volume; nothing after a SYN_DROPPED acts before its SYN_REPORT; a trap anywhere is a finding.
@_cdecl("fuzz_evdev_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzEvdev(UnsafeRawPointer(data), count) }
}

func fuzzEvdev(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    let events = EvdevEvent.records(in: bytes)
    precondition(events.count == count / EvdevEvent.size, "whole records only")
    var decoder = IRKeyDecoder(keys: IRSettings.defaultKeys)
    var dropping = false
    for event in events {
        let action = decoder.handle(event)
        if event.type == EvdevEvent.synchronization {
            if event.code == EvdevEvent.dropped { dropping = true } else if event.code == EvdevEvent.report { dropping = false }
        }
        guard let action else { continue }
        precondition(!dropping, "an event of a torn report acted on")
        precondition(event.type == EvdevEvent.key && (event.value == 1 || event.value == 2), "\(event) gave \(action)")
        precondition(event.value == 1 || action.repeatsWhenHeld, "a held key repeated \(action)")
        precondition(KeyCode(rawValue: event.code).flatMap { IRSettings.defaultKeys[$0] } == action)
        switch RadioIntent.forRemote(action, volumeStep: 2) {
        case .changeVolume(let percent): precondition(abs(percent) == 2)
        case .stepStation(let steps): precondition(abs(steps) == 1)
        case .favorite(let number): precondition((1...9).contains(number))
        default: break
        }
    }
    return 0
}
