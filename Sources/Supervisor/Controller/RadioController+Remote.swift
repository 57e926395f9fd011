import Hardware

extension RadioController {
    /// `sim_ir`: the remote's key `name` pressed, held for `repeats` of the kernel's autorepeats, and released,
    /// through the same key map and repeat policy as the receiver's events. On the queue.
    /// - Returns: the error in words, or nil.
    func pressRemoteKey(_ name: String, repeats held: Int) -> String? {
        guard let key = KeyCode(name: name.uppercased()) else {
            return "sim_ir needs a key the kernel knows, e.g. KEY_VOLUMEUP or KEY_1"
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
