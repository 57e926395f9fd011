import ApplianceSetup
import Foundation
import PrintableText

/// The settings screen's routes and the captive portal (``WebSetup``).
///
/// `GET /api/settings` and `GET /api/wifi/networks` need what a change needs (a login or Bearer), as does
/// `POST /api/settings`, which checks the form by the setup file's rules and leaves it in the settings inbox for
/// root; `GET /api/places` needs nothing (zone1970.tab's cities). While the setup access point is up, its
/// clients (in its address's /24; its WPA2 password let them in) need no password for these, and any request of
/// theirs for another host or, reading, for a path that is not the page's is sent to the page
/// (`302 Found`, `http://ADDRESS/`): what a phone's captive-portal check asks for opens the setup page.
extension WebRoutes {
    static let settingsPath = "/api/settings"
    static let networksPath = "/api/wifi/networks"
    static let placesPath = "/api/places"
    static let setupReadPaths: Set<String> = [settingsPath, networksPath, placesPath]
    /// The most places a search lists, and the longest search, in bytes.
    public static let placesLimit = 10
    public static let maximumPlaceQueryLength = 100

    func readSetup(_ request: HttpRequest, portal: SetupHotspot?) -> HttpResponse {
        guard let setup else { return .failure(404, "no such page: \(Self.printable(request.path))") }
        if request.path == Self.placesPath { return places(request.parameter("q") ?? "", in: setup) }
        if let refusal = Self.refusal(settingsAuthorization(of: request, portal: portal)) { return refusal }
        if request.path == Self.networksPath { return .json(WifiScan.networks(inFile: setup.wifiScanFile)) }
        return .json(WebSettingsListing(applied: AppliedSetup(root: setup.root), location: setup.location(),
                                        webPasswordSet: authentication.requiresPassword, hotspot: setup.hotspot() != nil,
                                        zoneTable: setup.zoneInfo.zoneTable))
    }

    func saveSettings(_ request: HttpRequest, portal: SetupHotspot?) -> HttpResponse {
        guard let setup else { return .failure(404, "no such page: \(Self.printable(request.path))") }
        if let refusal = Self.refusal(settingsAuthorization(of: request, portal: portal)) { return refusal }
        let form: SetupForm
        let text: String
        do {
            form = try SetupForm.decode(request.body)
            text = try form.checked(zoneInfo: setup.zoneInfo, appliedWifi: AppliedSetup(root: setup.root).wifi)
        } catch {
            return .json(WebSettingsAnswer(refused: error), status: 422)
        }
        do {
            try SetupInbox.write(text, to: setup.inboxFile)
        } catch {
            return .failure(500, "the settings could not be left for the radio: \(error)")
        }
        if let ssid = form.wifiSSID, setup.hotspot() != nil { setup.joining.set(StationText.printable(ssid)) }
        return .json(WebSettingsAnswer.accepted, status: 202)
    }

    /// The access point's clients need no password for the settings; everyone else what a change needs.
    private func settingsAuthorization(of request: HttpRequest, portal: SetupHotspot?) -> WebAuthentication.Authorization {
        portal != nil ? .allowed : authentication.authorization(of: request)
    }

    private func places(_ words: String, in setup: WebSetup) -> HttpResponse {
        let text = words.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return .failure(400, "a place search needs a name: /api/places?q=Berl") }
        guard text.utf8.count <= Self.maximumPlaceQueryLength else {
            return .failure(400, "a place search is at most \(Self.maximumPlaceQueryLength) bytes")
        }
        let zones = setup.zoneInfo.zoneTable?.places(matching: text, limit: Self.placesLimit) ?? []
        return .json(zones.map(WebPlace.init))
    }

    /// The portal's answer to a client of the access point: `302 Found` to `http://ADDRESS/` for another host,
    /// or for a read of a path that is not the page's; nil for the page's own requests.
    static func portalRedirect(_ request: HttpRequest, to hotspot: SetupHotspot, isOwnPath: Bool) -> HttpResponse? {
        let isPortalHost = request.header("host").map { host in
            // The port does not matter: the name does (a phone asks for connectivitycheck.gstatic.com).
            let name = host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return name == hotspot.address
        } ?? true
        let reads = request.method == "GET" || request.method == "HEAD"
        guard !isPortalHost || (reads && !isOwnPath) else { return nil }
        var response = HttpResponse(status: 302, headers: ["Location": "http://\(hotspot.address)/"])
        response.headers["Content-Type"] = "text/plain; charset=utf-8"
        response.body = Data("The radio's setup page is at http://\(hotspot.address)/\n".utf8)
        return response
    }
}
