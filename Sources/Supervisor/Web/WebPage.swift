import Foundation
import WavedialControl
import WavedialCore

/// The radio's page, rendered on the daemon: now playing with the LCD's rows, the dial as a slider with
/// its stations marked, the buttons, volume, favorites, search, sleep timer and alarms. One document
/// with its own style and a little script (no external assets: the radio may be offline) that calls
/// the JSON API and polls the status. Every text from outside (stations' names, titles, the LCD's rows)
/// is escaped here and set with `textContent` by the script, never as markup.
struct WebPage {
    var status: RadioStatus?
    var lcdLines: [String]
    var dial: DialListing
    var alarms: [AlarmListing]
    /// A password is set and this browser has not logged in: the page offers the login.
    var needsLogin: Bool
    /// Where the settings screen goes; nil: the page has none.
    var settings: SettingsScreen? = nil

    /// The document; `nonce` is the Content-Security-Policy's, the only script and style allowed to run.
    func html(nonce: String) -> String {
        var page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Wavedial</title><link rel="icon" href="\(WebIcon.path)" type="image/svg+xml">
            <style nonce="\(nonce)">\(Self.style)</style>
            </head><body>
            <main>
            \(settings == .first ? Self.settingsSection(open: true) : "")<section id="now" aria-label="Now playing">
            <pre id="lcd" aria-label="The radio's display">\(Self.escape(lcdLines.joined(separator: "\n")))</pre>
            <p id="station" class="big">\(Self.escape(status?.station?.name ?? "No station"))</p>
            <p id="title">\(Self.escape(status?.title ?? ""))</p>
            <p id="state" class="quiet">\(Self.escape(stateLine))</p>
            <p id="message" role="status" class="quiet"></p>
            </section>

            """
        if needsLogin {
            page += """
                <section id="login-section"><h2>Log in</h2>
                <form id="login"><label for="password">Password</label>
                <input id="password" name="password" type="password" autocomplete="current-password" required>
                <button type="submit">Log in</button></form></section>

                """
        }
        page += """
            <section aria-label="Controls" class="buttons">
            <button type="button" data-post="back" aria-label="Back">\(Self.icon("M6 5h2v14H6zM20 5v14L9 12z"))</button>
            <button type="button" data-post="play" aria-label="Play" id="play">\(Self.icon("M7 5v14l12-7z"))</button>
            <button type="button" data-post="pause" aria-label="Pause" id="pause">\(Self.icon("M6 5h4v14H6zM14 5h4v14h-4z"))</button>
            <button type="button" data-post="forward" aria-label="Forward">\(Self.icon("M16 5h2v14h-2zM4 5v14l11-7z"))</button>
            <button type="button" data-post="favorite" aria-label="Favorite" id="favorite">\(status?.favorite == true ? "&#x2665;" : "&#x2661;")</button>
            </section>

            <section aria-label="Dial"><h2>Dial <span id="band" class="quiet">\(dial.band.rawValue)</span>
            <button type="button" data-post="band" class="small">Switch band</button></h2>
            <output id="needle" for="dial">\(Self.megahertz(dial.needleMHz)) MHz</output>
            <input id="dial" type="range" min="\(Self.megahertz(dial.startMHz))" max="\(Self.megahertz(dial.endMHz))" step="0.1"
             value="\(Self.megahertz(dial.needleMHz))" list="marks" aria-label="Frequency">
            <div id="ticks" aria-hidden="true">\(dial.dial.compactMap(tick).joined())</div>
            <datalist id="marks">\(dial.dial.compactMap(mark).joined())</datalist>
            </section>

            <section aria-label="Volume"><h2>Volume <output id="volume-value">\(status?.volume ?? 0)</output></h2>
            <div class="row"><input id="volume" type="range" min="0" max="100" step="1" value="\(status?.volume ?? 0)" aria-label="Volume">
            <button type="button" data-post="mute" id="mute">\(status?.muted == true ? "Unmute" : "Mute")</button></div>
            </section>

            <section aria-label="Favorites"><h2>Favorites</h2>
            <p class="quiet">Tap to tune; &#x2661; adds the station playing.</p>
            <ol id="favorites" class="list">\(dial.favorites.map(favorite).joined())</ol>
            </section>

            <section aria-label="Search"><h2>Search</h2>
            <form id="search" class="row"><input id="query" type="search" maxlength="200" placeholder="Station name" aria-label="Station name">
            <button type="submit">Search</button></form>
            <ol id="results" class="list"></ol>
            </section>

            <section aria-label="Sleep timer"><h2>Sleep timer</h2>
            <p id="sleep-left" class="quiet">\(Self.escape(sleepLine))</p>
            <div class="row"><select id="sleep-minutes" aria-label="Minutes">
            <option value="15m">15 min</option><option value="30m" selected>30 min</option>
            <option value="60m">60 min</option><option value="90m">90 min</option></select>
            <button type="button" id="sleep-set">Set</button><button type="button" id="sleep-off">Cancel</button></div>
            </section>

            <section aria-label="Alarms"><h2>Alarms</h2>
            <ol id="alarms" class="list">\(alarms.map(alarm).joined())</ol>
            <form id="alarm-add"><div class="row">
            <input id="alarm-time" type="time" required value="07:00" aria-label="Time">
            <select id="alarm-days" aria-label="Days"><option value="daily">Every day</option>
            <option value="mon-fri">Mon–Fri</option><option value="sat,sun">Sat, Sun</option></select></div>
            <div class="row"><select id="alarm-station" aria-label="Station"><option value="">The last station</option>
            \(dial.favorites.map(stationOption).joined())</select>
            <button type="submit">Add alarm</button></div></form>
            </section>
            \(settings == .closed ? Self.settingsSection(open: false) : "")</main>
            <script nonce="\(nonce)">\(Self.script)\(settings == nil ? "" : Self.settingsScript)</script>
            </body></html>

            """
        return page
    }

    private var stateLine: String {
        guard let status else { return "" }
        var parts = [status.state.rawValue, status.muted ? "muted" : "volume \(status.volume)"]
        if let error = status.error { parts.append(error.words) }
        return parts.joined(separator: " · ")
    }

    private var sleepLine: String {
        guard let seconds = status?.sleepRemainingS.value else { return "Off" }
        return "Pauses in \(SleepDuration.text(seconds))"
    }

    private func tick(_ entry: DialListing.Entry) -> String? {
        guard let mhz = entry.frequencyMHz, mhz.isFinite else { return nil }
        return #"<span class="tick" data-mhz="\#(Self.megahertz(mhz))" title="\#(Self.escape(entry.name))"></span>"#
    }

    private func mark(_ entry: DialListing.Entry) -> String? {
        guard let mhz = entry.frequencyMHz, mhz.isFinite else { return nil }
        return #"<option value="\#(Self.megahertz(mhz))" label="\#(Self.escape(entry.name))"></option>"#
    }

    private func favorite(_ entry: DialListing.Entry) -> String {
        #"<li><button type="button" class="station" data-tune="\#(Self.escape(entry.stationuuid))">\#(Self.escape(entry.name))</button></li>"#
    }

    private func stationOption(_ entry: DialListing.Entry) -> String {
        #"<option value="\#(Self.escape(entry.stationuuid))">\#(Self.escape(entry.name))</option>"#
    }

    private func alarm(_ alarm: AlarmListing) -> String {
        let station = alarm.station.map { $0.name ?? $0.stationuuid } ?? "the last station"
        return #"<li class="alarm"><span>\#(Self.escape(alarm.time)) \#(Self.escape(alarm.days)) · \#(Self.escape(station))</span>"#
            + #"<button type="button" data-alarm="\#(alarm.enabled ? "disable" : "enable")" data-id="\#(alarm.id)">\#(alarm.enabled ? "On" : "Off")</button>"#
            + #"<button type="button" data-alarm="remove" data-id="\#(alarm.id)" aria-label="Remove">&#x2715;</button></li>"#
    }

    /// A button's picture, drawn inline (fonts may lack the media symbols, and nothing is fetched).
    private static func icon(_ path: String) -> String {
        #"<svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true"><path fill="currentColor" d="\#(path)"/></svg>"#
    }

    /// `94.1`: one decimal, as the dial shows it.
    static func megahertz(_ value: Double) -> String {
        value.isFinite ? String(format: "%.1f", value) : "0"
    }

    /// Text as HTML: markup characters as entities, controls as spaces (a name is hostile).
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n": out += "\n"
            default: out.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? " " : scalar)
            }
        }
        return out
    }

    private static let style = """
        :root{color-scheme:light dark;--accent:#c2410c;font-family:system-ui,sans-serif}
        body{margin:0;background:Canvas;color:CanvasText}
        main{max-width:40rem;margin:0 auto;padding:.75rem}
        section{margin:0 0 1.25rem}
        h2{font-size:1.1rem;margin:.25rem 0 .5rem;display:flex;gap:.5rem;align-items:center;flex-wrap:wrap}
        #lcd{font:1.05rem/1.3 ui-monospace,monospace;background:#1e3a1e;color:#b8f5a0;padding:.6rem .8rem;border-radius:.4rem;
         margin:0 0 .5rem;overflow-x:auto;white-space:pre}
        .big{font-size:1.3rem;font-weight:600;margin:.2rem 0}
        p{margin:.2rem 0;overflow-wrap:anywhere}
        .quiet{opacity:.7}
        button,select,input[type=search],input[type=time],input[type=password],#settings-form input{font:inherit;min-height:48px;padding:0 .9rem;
         border-radius:.5rem;border:1px solid #8888;background:ButtonFace;color:ButtonText}
        button{cursor:pointer;min-width:48px}
        button.small{min-height:40px;font-size:.9rem}
        .buttons{display:grid;grid-template-columns:repeat(5,1fr);gap:.5rem}
        .buttons button{font-size:1.5rem;min-height:56px;display:flex;align-items:center;justify-content:center}
        input[type=range]{width:100%;min-height:48px;accent-color:var(--accent);margin:0}
        #ticks{position:relative;height:14px;margin:0 12px}
        .tick{position:absolute;top:0;width:3px;height:14px;background:var(--accent);margin-left:-1px;border-radius:1px}
        .row{display:flex;gap:.5rem;align-items:center;margin:.3rem 0}
        .row input[type=search],.row select{flex:1;min-width:0}
        .list{list-style:none;padding:0;margin:0;display:grid;gap:.4rem}
        .station{width:100%;text-align:left;overflow-wrap:anywhere}
        .alarm{display:flex;gap:.5rem;align-items:center}
        .alarm span{flex:1;overflow-wrap:anywhere}
        #needle{font-size:1.2rem;font-variant-numeric:tabular-nums}
        summary h2{display:inline-flex}
        #settings-form{display:grid;gap:.3rem}
        #settings-form .row input{flex:1;min-width:0}
        #settings-now{display:grid;grid-template-columns:auto 1fr;gap:.2rem .8rem;margin:.3rem 0}
        #settings-now dd{margin:0;overflow-wrap:anywhere}
        """

    /// Polls the status every two seconds (and at once after each action); builds lists with
    /// `textContent` only. Releasing the dial tunes the station nearest the frequency, as the knob snaps.
    private static let script = """
        "use strict";
        const $ = (id) => document.getElementById(id);
        function say(text) { $("message").textContent = text; }
        async function call(path, body) {
          const options = body === undefined ? {} : {method: "POST", headers: {"Content-Type": "application/json"},
            body: JSON.stringify(body), credentials: "same-origin"};
          let reply;
          try { reply = await fetch(path, options); } catch (e) { say("The radio does not answer."); return null; }
          let data = null;
          try { data = await reply.json(); } catch (e) {}
          if (!reply.ok) {
            say((data && data.error) || ("Error " + reply.status));
            if (reply.status === 401 && !$("login")) location.reload();
            return null;
          }
          say("");
          return data;
        }
        async function act(command, body) {
          const data = await call("/api/" + command, body || {});
          if (data) {
            refresh();
            if (command.startsWith("alarms")) showAlarms(data.alarms);
            else if (["favorite", "band", "tune", "back", "forward"].includes(command)) loadDial();
          }
          return data;
        }
        function showStatus(s) {
          $("station").textContent = s.station ? s.station.name : "No station";
          $("title").textContent = s.title || "";
          const parts = [s.state, s.muted ? "muted" : "volume " + s.volume];
          if (s.error) parts.push(s.error);
          $("state").textContent = parts.join(" · ");
          $("favorite").textContent = s.favorite ? "\\u2665" : "\\u2661";
          $("mute").textContent = s.muted ? "Unmute" : "Mute";
          if (document.activeElement !== $("volume")) { $("volume").value = s.volume; $("volume-value").textContent = s.volume; }
          if (document.activeElement !== $("dial")) { $("dial").value = s.needle_mhz; $("needle").textContent = s.needle_mhz.toFixed(1) + " MHz"; }
          if ($("band").textContent !== s.band) loadDial();
          const left = s.sleep_remaining_s;
          $("sleep-left").textContent = left == null ? "Off" : "Pauses in " + Math.ceil(left / 60) + " min";
        }
        async function refresh() {
          const s = await call("/api/status");
          if (s) showStatus(s);
          const lcd = await call("/api/lcd");
          if (lcd && lcd.lines) $("lcd").textContent = lcd.lines.join("\\n");
        }
        function stationButton(station) {
          const li = document.createElement("li"), b = document.createElement("button");
          b.type = "button"; b.className = "station"; b.dataset.tune = station.stationuuid;
          b.textContent = station.name + (station.countrycode ? " (" + station.countrycode + ")" : "");
          li.appendChild(b);
          return li;
        }
        function showAlarms(alarms) {
          if (!alarms) return;
          const list = $("alarms");
          list.replaceChildren();
          for (const a of alarms) {
            const li = document.createElement("li"), text = document.createElement("span");
            li.className = "alarm";
            text.textContent = a.time + " " + a.days + " · " + (a.station ? (a.station.name || a.station.stationuuid) : "the last station");
            const toggle = document.createElement("button"), remove = document.createElement("button");
            toggle.type = remove.type = "button";
            toggle.dataset.alarm = a.enabled ? "disable" : "enable"; toggle.textContent = a.enabled ? "On" : "Off";
            remove.dataset.alarm = "remove"; remove.textContent = "\\u2715"; remove.setAttribute("aria-label", "Remove");
            toggle.dataset.id = remove.dataset.id = String(a.id);
            li.append(text, toggle, remove);
            list.appendChild(li);
          }
        }
        function element(tag, fields) { const e = document.createElement(tag); Object.assign(e, fields); return e; }
        async function loadDial() {
          const d = await call("/api/dial");
          if (!d) return;
          const dial = $("dial");
          dial.min = d.start_mhz.toFixed(1); dial.max = d.end_mhz.toFixed(1);
          $("band").textContent = d.band;
          const placed = d.dial.filter((s) => s.frequency_mhz != null);
          $("ticks").replaceChildren(...placed.map((s) => {
            const t = element("span", {className: "tick", title: s.name}); t.dataset.mhz = s.frequency_mhz.toFixed(1); return t; }));
          $("marks").replaceChildren(...placed.map((s) => element("option", {value: s.frequency_mhz.toFixed(1), label: s.name})));
          $("favorites").replaceChildren(...d.favorites.map(stationButton));
          $("alarm-station").replaceChildren(element("option", {value: "", textContent: "The last station"}),
            ...d.favorites.map((s) => element("option", {value: s.stationuuid, textContent: s.name})));
          placeTicks();
        }
        function placeTicks() {
          const dial = $("dial"), low = parseFloat(dial.min), high = parseFloat(dial.max);
          for (const tick of document.querySelectorAll(".tick")) {
            tick.style.left = (100 * (parseFloat(tick.dataset.mhz) - low) / (high - low)) + "%";
          }
        }
        document.addEventListener("click", (event) => {
          const button = event.target.closest("button");
          if (!button) return;
          if (button.dataset.post) act(button.dataset.post);
          else if (button.dataset.tune) act("tune", {value: button.dataset.tune});
          else if (button.dataset.alarm) act("alarms/" + button.dataset.alarm, {id: Number(button.dataset.id)});
        });
        $("dial").addEventListener("input", () => { $("needle").textContent = parseFloat($("dial").value).toFixed(1) + " MHz"; });
        $("dial").addEventListener("change", () => act("tune", {value: $("dial").value}));
        $("volume").addEventListener("input", () => { $("volume-value").textContent = $("volume").value; });
        $("volume").addEventListener("change", () => act("volume", {value: $("volume").value}));
        $("sleep-set").addEventListener("click", () => act("sleep", {value: $("sleep-minutes").value}));
        $("sleep-off").addEventListener("click", () => act("sleep", {value: "off"}));
        $("search").addEventListener("submit", async (event) => {
          event.preventDefault();
          const q = $("query").value.trim();
          if (!q) return;
          const stations = await call("/api/search?q=" + encodeURIComponent(q));
          if (!stations) return;
          $("results").replaceChildren(...stations.map(stationButton));
          if (stations.length === 0) say("No station found.");
        });
        $("alarm-add").addEventListener("submit", (event) => {
          event.preventDefault();
          const body = {time: $("alarm-time").value, days: $("alarm-days").value};
          if ($("alarm-station").value) body.stationuuid = $("alarm-station").value;
          act("alarms", body);
        });
        if ($("login")) $("login").addEventListener("submit", async (event) => {
          event.preventDefault();
          if (await call("/api/login", {password: $("password").value})) location.reload();
        });
        placeTicks();
        setInterval(refresh, 2000);
        """
}
