import Hardware

extension RadioController {
    /// The most autorepeats one `sim_ir` request holds a key for (about 12 s of the kernel's default rate).
    static let maximumSimulatedRepeats = 100

    /// `sim_ir`: the remote's key `name` pressed, held for `repeats` of the kernel's autorepeats, and released,
    /// through the same key map and repeat policy as the receiver's events. On the queue.
    /// - Returns: the error in words, or nil.
    func pressRemoteKey(_ name: String?, repeats: Int?) -> String? {
        guard let name, name.utf8.count <= 64, let key = KeyCode(name: name.uppercased()) else {
            return "sim_ir needs a key the kernel knows, e.g. KEY_VOLUMEUP or KEY_1"
        }
        let held = repeats ?? 0
        guard (0...Self.maximumSimulatedRepeats).contains(held) else {
            return "sim_ir steps (autorepeats while held) must be from 0 to \(Self.maximumSimulatedRepeats)"
        }
        let report = EvdevEvent(type: EvdevEvent.synchronization, code: EvdevEvent.report, value: 0)
        var events = [EvdevEvent(type: EvdevEvent.key, code: key.rawValue, value: 1), report]
        for _ in 0..<held { events += [EvdevEvent(type: EvdevEvent.key, code: key.rawValue, value: 2), report] }
        events += [EvdevEvent(type: EvdevEvent.key, code: key.rawValue, value: 0), report]
        var decoder = IRKeyDecoder(keys: configuration.ir.keys)
        for action in decoder.handle(events) {
            carryOut(.forRemote(action, volumeStep: configuration.ir.volumeStepPercent))
        }
        return nil
    }
}
