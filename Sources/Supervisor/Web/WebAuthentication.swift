import CurlSupport
import Foundation

/// Who may change the radio's state through the web page: with `[web] password` set, a request
/// needs the session cookie a login gave (``cookieName``, HttpOnly, SameSite=Strict) or
/// `Authorization: Bearer <password>`; without one, anyone the allow list admits. Reading needs nothing.
///
/// Wrong passwords are limited per client address, the login's and Bearer's alike (and MPD's, sharing
/// ``PasswordAttempts``): each wrong answer is slow, and an address wrong too often is locked out (429)
/// for growing times. Sessions live in memory (a restart logs out), at most ``maximumSessions`` (the
/// oldest goes first), each for ``sessionLifetime`` seconds. Any thread.
public final class WebAuthentication: @unchecked Sendable {
    public static let cookieName = "wavedial_session"
    public static let maximumSessions = 32
    public static let sessionLifetime: Double = 30 * 24 * 3600

    /// Why a login failed.
    public enum LoginFailure: Error, Equatable {
        case wrongPassword
        case tooManyAttempts(retryAfterSeconds: Int)
    }

    /// Whether a request may change the radio's state.
    public enum Authorization: Equatable {
        case allowed
        case refused
        /// Its `Authorization: Bearer` was not judged: its address guessed wrong too often.
        case lockedOut(retryAfterSeconds: Int)
    }

    private let password: String
    private let attempts: PasswordAttempts
    private let now: () -> Double
    /// Guards `sessions`.
    private let lock = NSLock()
    /// Token → when it was given, oldest first.
    private var sessions: [(token: String, since: Double)] = []

    /// - Parameters:
    ///   - attempts: judges the login's and Bearer's passwords (the daemon's one, shared with MPD).
    ///   - now: seconds on a monotonic clock, for the sessions (tests move it by hand).
    public init(password: String, attempts: PasswordAttempts = PasswordAttempts(),
                now: @escaping () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }) {
        self.password = password
        self.attempts = attempts
        self.now = now
    }

    /// Whether a password is set (state changes need it).
    public var requiresPassword: Bool { !password.isEmpty }

    /// Whether `request` may change the radio's state.
    public func authorizes(_ request: HttpRequest) -> Bool { authorization(of: request) == .allowed }

    /// Whether `request` may change the radio's state, and if not, whether its address is locked out.
    /// A Bearer password is judged as a login's is (a wrong one is slow, and counts).
    public func authorization(of request: HttpRequest) -> Authorization {
        guard requiresPassword else { return .allowed }
        if let authorization = request.header("authorization"), authorization.utf8.count <= 300 {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                switch attempts.judge(String(parts[1]), against: password, from: request.peer) {
                case .accepted: return .allowed
                case .wrong: return .refused
                case .lockedOut(let seconds): return .lockedOut(retryAfterSeconds: seconds)
                }
            }
        }
        return hasSession(request) ? .allowed : .refused
    }

    private func hasSession(_ request: HttpRequest) -> Bool {
        guard let token = Self.sessionToken(in: request) else { return false }
        let time = now()
        return lock.withLock {
            sessions.removeAll { time - $0.since > Self.sessionLifetime }
            return sessions.contains { PasswordAttempts.equalInConstantTime(Array($0.token.utf8), Array(token.utf8)) }
        }
    }

    /// Checks `candidate`, presented from `address`, and gives a new session's token. - Throws: ``LoginFailure``.
    public func login(password candidate: String, from address: IPAddress? = nil) throws(LoginFailure) -> String {
        guard requiresPassword else { throw .wrongPassword }
        switch attempts.judge(candidate, against: password, from: address) {
        case .accepted: break
        case .wrong: throw .wrongPassword
        case .lockedOut(let seconds): throw .tooManyAttempts(retryAfterSeconds: seconds)
        }
        let time = now()
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
}
