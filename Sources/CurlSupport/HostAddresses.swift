import Glibc

/// This machine's own addresses (`getifaddrs`): those of its interfaces and their broadcast
/// addresses, which ``AddressPolicy`` refuses as ``AddressPolicy/Kinds/ownAddress``.
public enum HostAddresses {
    /// The addresses now (interfaces come and go: read at each connect). Empty when `getifaddrs` fails.
    public static func current() -> [IPAddress] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(first) }
        var addresses: [IPAddress] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            // ifa_ifu is the broadcast address on an interface flagged IFF_BROADCAST.
            let broadcast = entry.pointee.ifa_flags & UInt32(IFF_BROADCAST) != 0 ? entry.pointee.ifa_ifu.ifu_broadaddr : nil
            for socketAddress in [entry.pointee.ifa_addr, broadcast] {
                if let socketAddress, let address = address(of: socketAddress) { addresses.append(address) }
            }
            cursor = entry.pointee.ifa_next
        }
        return addresses
    }

    private static func address(of socketAddress: UnsafeMutablePointer<sockaddr>) -> IPAddress? {
        let length: Int
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET: length = MemoryLayout<sockaddr_in>.size
        case AF_INET6: length = MemoryLayout<sockaddr_in6>.size
        default: return nil
        }
        return IPAddress(socketAddress: UnsafeRawBufferPointer(start: socketAddress, count: length))
    }
}
