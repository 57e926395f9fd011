import Hardware
import Logging

/// The simulator's knob and buttons: the appliance's reader and decoder over simulated lines that
/// `sim_edges` requests drive (debounce, Gray code, acceleration as on the real radio).
final class SimulatedInput {
    /// Where `sim_edges` schedules its edges.
    let backend: SimulatedGPIOBackend
    private let reader: InputReader

    init(settings: InputSettings, logger: Logger, onEvent: @escaping (InputEvent) -> Void) {
        var settings = settings
        settings.backend = .simulated
        // The encoders rest with both contacts open: pulled up, they read 1.
        backend = SimulatedGPIOBackend(idleLevels: [
            "encoder.a": true, "encoder.b": true, "volume_encoder.a": true, "volume_encoder.b": true,
        ])
        reader = InputReader(
            settings: settings, backend: backend, logger: logger,
            handlers: .init(event: onEvent, failure: { error in
                logger.error("simulated input stopped", metadata: ["error": "\(error)"])
            }))
    }
}

/// Not essential: without it the simulator still answers `sim_turn` and `sim_press`.
extension SimulatedInput: ApplianceService {
    var threadNames: String { "wd-gpio" }
    var isEssential: Bool { false }

    func start() throws { try reader.start() }

    /// Wakes its simulated lines: returns once `wd-gpio` has ended.
    func stop(waitingUpTo timeout: Double) -> Bool {
        reader.stop()
        return true
    }
}
