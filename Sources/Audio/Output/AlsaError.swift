import CAlsa

/// An alsa-lib failure: the negative error code, the function that returned it and `snd_strerror`'s words.
public struct AlsaError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let function: String

    public init(code: Int32, function: String) {
        self.code = code
        self.function = function
    }

    public var description: String { "\(function): \(String(cString: snd_strerror(code)))" }
}
