import Foundation

/// Who may change the radio's state through the web page: with `[web] password` set, a request
/// needs the session cookie a login gave (``cookieName``, HttpOnly, SameSite=Strict) or
/// `Authorization: Bearer <password>`; without one, anyone the allow list admits. Reading needs nothing.
///
/// Wrong passwords are limited: after ``maximumFailures`` within ``failureWindow`` seconds, logins
/// are refused (429) until the window has passed. Sessions live in memory (a restart logs out), at
/// most ``maximumSessions`` (the oldest goes first), each for ``sessionLifetime`` seconds. Any thread.
public final class WebAuthentication: @unchecked Sendable {
    public static let cookieName = "wavedial_session"
    public static let maximumSessions = 32
    public static let sessionLifetime: Double = 30 * 24 * 3600
    public static let maximumFailures = 5
    public static let failureWindow: Double = 60

    /// Why a login failed.
    public enum LoginFailure: Error, Equatable {
        case wrongPassword
        case tooManyAttempts
    }

    private let password: [UInt8]
    private let now: () -> Double
    /// Guards `sessions` and `failures`.
    private let lock = NSLock()
    /// Token → when it was given, oldest first.
    private var sessions: [(token: String, since: Double)] = []
    private var failures: [Double] = []

    /// - Parameter now: seconds on a monotonic clock (tests move it by hand).
    public init(password: String, now: @escaping () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }) {
        self.password = Array(password.utf8)
        self.now = now
    }

    /// Whether a password is set (state changes need it).
    public var requiresPassword: Bool { !password.isEmpty }

    /// Whether `request` may change the radio's state.
    public func authorizes(_ request: HttpRequest) -> Bool {
        guard requiresPassword else { return true }
        if let authorization = request.header("authorization"), authorization.utf8.count <= 300 {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer", Self.equalInConstantTime(Array(parts[1].utf8), password) {
                return true
            }
        }
        guard let token = Self.sessionToken(in: request) else { return false }
        let time = now()
        return lock.withLock {
            sessions.removeAll { time - $0.since > Self.sessionLifetime }
            return sessions.contains { Self.equalInConstantTime(Array($0.token.utf8), Array(token.utf8)) }
        }
    }

    /// Checks `candidate` and gives a new session's token. - Throws: ``LoginFailure``.
    public func login(password candidate: String) throws(LoginFailure) -> String {
        let time = now()
        let allowed = lock.withLock { () -> Bool in
            failures.removeAll { time - $0 > Self.failureWindow }
            return failures.count < Self.maximumFailures
        }
        guard allowed else { throw .tooManyAttempts }
        guard requiresPassword, Self.equalInConstantTime(Array(candidate.utf8), password) else {
            lock.withLock { failures.append(time) }
            throw .wrongPassword
        }
        var generator = SystemRandomNumberGenerator()
        let token = (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
        lock.withLock {
            sessions.append((token, time))
            if sessions.count > Self.maximumSessions { sessions.removeFirst(sessions.count - Self.maximumSessions) }
        }
        return token
    }

    /// Ends the session `request` carries, if any.
    public func logout(_ request: HttpRequest) {
        guard let token = Self.sessionToken(in: request) else { return }
        lock.withLock { sessions.removeAll { $0.token == token } }
    }

    /// The `Set-Cookie` value that hands `token` to the browser (empty: removes it).
    public static func cookie(_ token: String) -> String {
        let age = token.isEmpty ? 0 : Int(sessionLifetime)
        return "\(cookieName)=\(token); Path=/; Max-Age=\(age); HttpOnly; SameSite=Strict"
    }

    private static func sessionToken(in request: HttpRequest) -> String? {
        guard let cookies = request.header("cookie"), cookies.utf8.count <= 4096 else { return nil }
        for pair in cookies.split(separator: ";").prefix(50) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName {
                let token = parts[1].trimmingCharacters(in: .whitespaces)
                return token.utf8.count == 64 ? token : nil
            }
        }
        return nil
    }

    /// Compares without stopping at the first difference, so the time taken does not tell how much matched.
    private static func equalInConstantTime(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: left.count ^ right.count)
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            difference |= a ^ b
        }
        return difference == 0 && left.count == right.count
    }
}
