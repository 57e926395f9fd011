/// The page's settings screen: the radio's current settings that are not secret and a form that changes them
/// (Wi-Fi network from the scan list or typed, its password, country, hostname, time zone, place from an offline
/// search or latitude and longitude, the web password). Its values come from `GET /api/settings` and are set with
/// `textContent`; the form posts only the fields filled in. While the setup access point is up the page opens on
/// it (``WebPage/SettingsScreen/first``).
extension WebPage {
    /// Where the settings screen goes on the page.
    enum SettingsScreen {
        /// First and open: the setup access point is up and this client is on it.
        case first
        /// Last, folded.
        case closed
    }

    /// The screen's markup, open or folded.
    static func settingsSection(open: Bool) -> String {
        """
        <details id="settings-screen"\(open ? " open" : "")><summary><h2>Settings</h2></summary>
        <dl id="settings-now" class="quiet"></dl>
        <form id="settings-form" autocomplete="off">
        <label for="set-ssid">Wi-Fi network</label>
        <input id="set-ssid" list="wifi-networks" maxlength="32" placeholder="Choose or type its name">
        <datalist id="wifi-networks"></datalist>
        <label for="set-wifi-password">Wi-Fi password</label>
        <input id="set-wifi-password" type="password" maxlength="64" autocomplete="new-password">
        <label for="set-country">Country (two letters)</label>
        <input id="set-country" maxlength="2" placeholder="DE">
        <label for="set-hostname">Radio's name on the network</label>
        <input id="set-hostname" maxlength="63" placeholder="wavedial">
        <label for="set-timezone">Time zone</label>
        <select id="set-timezone"><option value="">Unchanged</option></select>
        <label for="set-place">Place (a city, found offline)</label>
        <input id="set-place" list="places" maxlength="100" placeholder="Berlin">
        <datalist id="places"></datalist>
        <div class="row"><input id="set-latitude" type="number" step="any" min="-90" max="90" placeholder="Latitude" aria-label="Latitude">
        <input id="set-longitude" type="number" step="any" min="-180" max="180" placeholder="Longitude" aria-label="Longitude"></div>
        <label for="set-web-password">Web page password</label>
        <input id="set-web-password" type="password" maxlength="128" autocomplete="new-password">
        <button type="submit">Save settings</button>
        </form></details>

        """
    }

    /// Loads the current settings and the scan list, searches places as they are typed, and posts the form.
    static let settingsScript = """
        async function loadSettings() {
          let reply;
          try { reply = await fetch("/api/settings", {credentials: "same-origin"}); } catch (e) { return; }
          if (!reply.ok) { $("settings-now").textContent = "Log in to see and change the settings."; return; }
          const s = await reply.json();
          const place = s.location ? s.location.latitude.toFixed(3) + ", " + s.location.longitude.toFixed(3) : null;
          const rows = [["Wi-Fi network", s.wifi.ssid], ["Country", s.wifi.country], ["Name", s.system.hostname],
            ["Time zone", s.system.timezone], ["Location", place], ["Web password", s.web.password_set ? "set" : null]];
          $("settings-now").replaceChildren(...rows.flatMap(([name, value]) =>
            [element("dt", {textContent: name}), element("dd", {textContent: value || "not set"})]));
          $("set-timezone").replaceChildren(element("option", {value: "", textContent: "Unchanged" + (s.system.timezone ? " (" + s.system.timezone + ")" : "")}),
            ...s.timezones.map((zone) => element("option", {value: zone, textContent: zone})));
          const networks = await call("/api/wifi/networks");
          if (networks) $("wifi-networks").replaceChildren(...networks.map((n) => element("option", {value: n.ssid,
            label: (n.signal_dbm == null ? "" : Math.round(n.signal_dbm) + " dBm") + (n.needs_password ? " \\u{1F512}" : "")})));
        }
        let placeTyped = 0;
        $("set-place").addEventListener("input", async () => {
          const q = $("set-place").value.trim(), typed = ++placeTyped;
          if (q.length < 2) return;
          const places = await call("/api/places?q=" + encodeURIComponent(q));
          if (!places || typed !== placeTyped) return;
          $("places").replaceChildren(...places.map((p) => element("option", {value: p.place, label: p.timezone})));
          const exact = places.find((p) => p.place.toLowerCase() === q.toLowerCase());
          if (exact && !$("set-timezone").value) $("set-timezone").value = exact.timezone;
        });
        $("settings-form").addEventListener("submit", async (event) => {
          event.preventDefault();
          const body = {};
          const put = (section, key, value) => { if (value !== "") (body[section] = body[section] || {})[key] = value; };
          put("wifi", "ssid", $("set-ssid").value);
          put("wifi", "password", $("set-wifi-password").value);
          put("wifi", "country", $("set-country").value.trim());
          put("system", "hostname", $("set-hostname").value.trim());
          put("system", "timezone", $("set-timezone").value);
          put("location", "place", $("set-place").value.trim());
          if ($("set-latitude").value !== "" || $("set-longitude").value !== "") {
            body.location = {latitude: Number($("set-latitude").value), longitude: Number($("set-longitude").value)};
          }
          put("web", "password", $("set-web-password").value);
          const data = await call("/api/settings", body);
          if (!data) return;
          $("settings-form").reset();
          say(body.wifi && body.wifi.ssid ? "Saved: the radio joins " + body.wifi.ssid + " now; its display shows its new address."
            : "Saved: the radio applies the settings now.");
          loadSettings();
        });
        loadSettings();
        """
}
