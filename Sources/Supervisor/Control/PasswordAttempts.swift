import CurlSupport
import Foundation
import Logging

/// Every way of presenting a password to the radio (the web page's login, `Authorization: Bearer`, MPD's
/// `password`) is judged here, so guessing is slow whichever way it comes: each wrong answer waits
/// ``wrongAnswerDelay`` before it is given, and a client address that was wrong ``allowedFailures`` times
/// is locked out (every attempt refused unjudged) for 1 s, then twice as long at each further failure, up
/// to ``longestLockout``. Per address: a second client (another phone) still logs in meanwhile. An
/// address's failures are forgotten ``forgetAfter`` seconds after its last one or the end of its lockout.
/// The comparison takes the same time however much of a guess was right. Any thread; the delay is spent
/// on the caller's (the client's) thread.
public final class PasswordAttempts: @unchecked Sendable {
    /// How a presented password was judged.
    public enum Verdict: Equatable, Sendable {
        case accepted
        case wrong
        /// Not judged: the address is locked out for this many seconds more.
        case lockedOut(retryAfterSeconds: Int)
    }

    public static let allowedFailures = 5
    public static let wrongAnswerDelay: Double = 0.25
    public static let longestLockout: Double = 60
    public static let forgetAfter: Double = 60
    /// Addresses remembered at most (the least recent goes first): a flood of addresses cannot grow it.
    public static let maximumAddresses = 256

    private struct Record {
        var failures = 0
        var lockedUntil: Double = 0
        var lastFailure: Double = 0
    }

    private let now: () -> Double
    private let wait: (Double) -> Void
    private let logger: Logger
    /// Guards `records`.
    private let lock = NSLock()
    private var records: [String: Record] = [:]

    /// - Parameters:
    ///   - now: seconds on a monotonic clock (tests move it by hand).
    ///   - wait: spends the wrong answer's delay (tests record it instead).
    public init(logger: Logger = Logger(label: "wavedial.auth"),
                now: @escaping () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 },
                wait: @escaping (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }) {
        self.logger = logger
        self.now = now
        self.wait = wait
    }

    /// Judges `candidate` against `secret` (not empty) for the client at `address` (nil: one unknown,
    /// all such counted together). A wrong one returns after ``wrongAnswerDelay``.
    public func judge(_ candidate: String, against secret: String, from address: IPAddress?) -> Verdict {
        let key = address?.description ?? "unknown"
        let time = now()
        let verdict = lock.withLock { () -> Verdict in
            records = records.filter { time - max($0.value.lastFailure, $0.value.lockedUntil) <= Self.forgetAfter }
            var record = records[key] ?? Record()
            if record.lockedUntil > time { return .lockedOut(retryAfterSeconds: Int((record.lockedUntil - time).rounded(.up))) }
            // Judged and counted under the lock: parallel guesses cannot all pass before the first is counted.
            if !secret.isEmpty, Self.equalInConstantTime(Array(candidate.utf8), Array(secret.utf8)) {
                records[key] = nil
                return .accepted
            }
            record.failures += 1
            record.lastFailure = time
            if record.failures >= Self.allowedFailures {
                let lockout = min(Self.longestLockout, pow(2, Double(record.failures - Self.allowedFailures)))
                record.lockedUntil = time + lockout
                logger.warning("repeated wrong passwords: the client is locked out", metadata: [
                    "client": "\(key)", "failures": "\(record.failures)", "lockout.seconds": "\(Int(lockout))",
                ])
            }
            records[key] = record
            if records.count > Self.maximumAddresses,
               let oldest = records.min(by: { $0.value.lastFailure < $1.value.lastFailure })?.key {
                records[oldest] = nil
            }
            return .wrong
        }
        if verdict == .wrong { wait(Self.wrongAnswerDelay) }
        return verdict
    }

    /// Compares without stopping at the first difference, so the time taken does not tell how much matched.
    static func equalInConstantTime(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: left.count ^ right.count)
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            difference |= a ^ b
        }
        return difference == 0 && left.count == right.count
    }
}
