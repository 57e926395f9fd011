import Foundation

/// Why the demo band could not start, in words that say what to do.
public enum DemoBandError: Error, Equatable, CustomStringConvertible {
    /// espeak-ng or ffmpeg (the Debian packages named) is not installed.
    case missingTools([String])
    /// A tool ran and failed: its path, exit status (128 + signal when killed) and the end of its stderr.
    case toolFailed(String, status: Int32, message: String)
    /// A tool could not be started at all.
    case spawnFailed(String, errno: Int32)
    /// The media cache folder could not be made or written.
    case cacheUnwritable(String, reason: String)
    /// The loopback server's socket call failed.
    case serverFailed(call: String, errno: Int32)
    /// The daemon was told to stop while the band was being made.
    case cancelled

    public var description: String {
        switch self {
        case .missingTools(let packages):
            return "the demo band makes its stations' audio with espeak-ng and ffmpeg; missing: \(packages.joined(separator: ", ")). "
                + "Install them with 'sudo apt install \(packages.joined(separator: " "))' (or 'scripts/install-deps run')"
        case .toolFailed(let tool, let status, let message):
            return "\(tool) failed (status \(status)) making the demo band's audio" + (message.isEmpty ? "" : ": \(message)")
        case .spawnFailed(let tool, let number):
            return "cannot start \(tool): \(String(cString: strerror(number)))"
        case .cacheUnwritable(let path, let reason):
            return "cannot write the demo band's audio to \(path): \(reason) (set XDG_CACHE_HOME to a writable folder)"
        case .serverFailed(let call, let number):
            return "the demo band's loopback server failed: \(call): \(String(cString: strerror(number)))"
        case .cancelled:
            return "stopped while the demo band was being made"
        }
    }
}
