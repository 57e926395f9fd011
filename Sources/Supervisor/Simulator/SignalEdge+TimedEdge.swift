import Hardware
import WavedialControl

extension SignalEdge {
    /// The edge for `SimulatedGPIOBackend.schedule`, or the problem in words.
    func timedEdge() -> Result<SimulatedGPIOBackend.TimedEdge, SignalEdgeError> {
        guard level == 0 || level == 1 else { return .failure(SignalEdgeError("level must be 0 or 1, not \(level)")) }
        guard afterNanoseconds <= Self.maximumGapNanoseconds else {
            return .failure(SignalEdgeError("after_ns must be at most \(Self.maximumGapNanoseconds), not \(afterNanoseconds)"))
        }
        return .success(.init(role: line, level: level == 1, afterNanoseconds: afterNanoseconds))
    }
}

/// Why an edge of `sim_edges` was refused.
public struct SignalEdgeError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
