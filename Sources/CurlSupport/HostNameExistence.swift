import CResolv
import Glibc

/// Whether a host name that libcurl could not resolve exists at all.
///
/// libcurl says only "could not resolve host" (`CURLE_COULDNT_RESOLVE_HOST`), for a name that does not
/// exist as for a resolver it could not reach. Only the first is the station's fault and the same on a
/// retry, so ``lookUp(_:)`` asks the DNS once more itself, through the same search list as
/// `getaddrinfo`, and believes only NXDOMAIN.
public enum HostNameExistence: Equatable, Sendable {
    /// The DNS answered that the name does not exist (NXDOMAIN, after every search domain), or the name
    /// is under `.invalid`, which RFC 6761 (section 6.4) says never exists.
    case nonexistent
    /// Anything else: the name exists without an address, the resolver failed (SERVFAIL, refused), did
    /// not answer in time or could not be reached (no network): worth trying again.
    case unknown

    /// Seconds one query waits for an answer, and how many times it is sent (a name that did not resolve
    /// is asked about on the network thread before its retry: this bounds the wait).
    private static let queryTimeout: Int32 = 1
    private static let queryAttempts: Int32 = 1

    /// Asks the system resolver about `host` (`res_nsearch` for its A record, with a resolver state of its
    /// own set to one 1-second try per server): blocks for at most about a second per name server and
    /// search domain. Any thread. An IP address, an empty or over-long name is ``unknown``.
    public static func lookUp(_ host: String) -> HostNameExistence {
        let name = normalized(host)
        guard isLookable(name) else { return .unknown }
        if isReservedInvalid(name) { return .nonexistent }
        let state = UnsafeMutablePointer<__res_state>.allocate(capacity: 1)
        state.initialize(to: __res_state())
        defer { state.deallocate() }
        guard CResolv_ninit(state) == 0 else { return .unknown }
        defer { CResolv_nclose(state) }
        state.pointee.retrans = queryTimeout
        state.pointee.retry = queryAttempts
        var answer = [UInt8](repeating: 0, count: 512)
        let length = CResolv_nsearch(state, name, Int32(ns_t_a.rawValue), &answer, Int32(answer.count))
        return judge(host: name, resolverStatus: length >= 0 ? nil : state.pointee.res_h_errno)
    }

    /// What a search's outcome says about `host`: `resolverStatus` is the resolver's `h_errno` after a
    /// failed search (`HOST_NOT_FOUND`, `TRY_AGAIN`, `NO_RECOVERY`, `NO_DATA`), nil when it found records.
    /// Pure; any thread.
    public static func judge(host: String, resolverStatus: Int32?) -> HostNameExistence {
        let name = normalized(host)
        guard isLookable(name) else { return .unknown }
        if isReservedInvalid(name) { return .nonexistent }
        return resolverStatus == HOST_NOT_FOUND ? .nonexistent : .unknown
    }

    /// Lowercased, without the root's trailing dot.
    private static func normalized(_ host: String) -> String {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        return name
    }

    /// A DNS name (at most 253 characters, no NUL, no empty label) that is no IP address and no
    /// multicast DNS name: `.local` names are not asked of the DNS, so its NXDOMAIN says nothing of them.
    private static func isLookable(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 253, !name.utf8.contains(0), !name.hasPrefix("["),
              IPAddress(name) == nil else { return false }
        guard !name.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else { return false }
        return name != "local" && !name.hasSuffix(".local")
    }

    private static func isReservedInvalid(_ name: String) -> Bool {
        name == "invalid" || name.hasSuffix(".invalid")
    }
}
