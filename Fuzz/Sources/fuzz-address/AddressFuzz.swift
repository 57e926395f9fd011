import CurlSupport
import FuzzDriver

/// The address policy on hostile input: the first byte picks what the rest is, text for the
/// configuration's `allowed_addresses` parser (`IPNetwork`, `IPAddress`) or the raw socket address
/// libcurl hands to the open-socket callback. Whatever parses must print as it parses, lie in its own
/// range, and be judged consistently: what a catalog station may reach a typed URL may reach too, and
/// what a typed URL may not reach a configured server may not reach only if it is nowhere at all.
@_cdecl("fuzz_address_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzAddress(UnsafeRawPointer(data), count) }
}

func fuzzAddress(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    guard let first = bytes.first else { return 0 }
    let rest = UnsafeRawBufferPointer(rebasing: bytes[1...])
    if first & 1 == 0 {
        let text = String(decoding: rest, as: UTF8.self)
        if let network = IPNetwork(text) {
            precondition(IPNetwork(network.description) == network, "\(network) prints as it parses")
            precondition(network.contains(network.address))
            judge(network.address)
        }
        if let address = IPAddress(text) {
            precondition(IPAddress(address.description) == address, "\(address) prints as it parses")
            judge(address)
        }
    } else if let address = IPAddress(socketAddress: rest) {
        precondition(IPAddress(address.description) == address, "\(address) prints as it parses")
        judge(address)
    }
    return 0
}

/// Checks the policies' order on `address`, alone and as its own exception.
private func judge(_ address: IPAddress) {
    let catalog = AddressPolicy.catalog.refusal(of: address)
    let typed = AddressPolicy.userTyped.refusal(of: address)
    let configured = AddressPolicy.configuredServer.refusal(of: address)
    precondition(catalog != nil || typed == nil, "\(address): the catalog's policy is the strictest")
    precondition(typed != nil || configured == nil, "\(address): a configured server is the least restricted")
    precondition(AddressPolicy.catalog.allowing([IPNetwork(address, prefixLength: 128)]).refusal(of: address) == nil)
    _ = address.embeddedIPv4
    _ = catalog?.description
}
