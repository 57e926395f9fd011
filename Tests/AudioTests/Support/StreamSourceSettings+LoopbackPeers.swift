import CurlSupport
@testable import Audio

extension StreamSourceSettings {
    /// The defaults with the tests' loopback servers allowed (`[audio] allowed_addresses`): a station
    /// plays under the catalog's address policy by default, which refuses loopback.
    static let loopbackPeers = StreamSourceSettings(allowedAddresses: IPNetwork.loopback)
}
