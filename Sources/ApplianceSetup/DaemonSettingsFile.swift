import TOMLKit
import WavedialCore

/// The image's daemon settings, `data/wavedial/config.toml` (`/var/lib/wavedial/config.toml` on the radio):
/// made and owned by `wavedial setup apply`. Each apply merges its keys into the file there is, so what an
/// earlier apply set (the audio device) stays when a later one sets another key (the web password).
enum DaemonSettingsFile {
    /// The first lines, so whoever opens the file knows where its values come from.
    static let header = """
        # Written by `wavedial setup apply` from wavedial-setup.toml on the card's boot partition:
        # change the settings there. This file is rewritten whenever that file sets [web], [audio] or [catalog].

        """

    /// The file's new text: `previous` (nil when there is none) with the web page turned on for everyone on the
    /// network behind `webPassword`, `audioDevice` as the sound card and `catalogServers` as the catalog's servers.
    /// - Throws: the previous file's problem when it is not TOML.
    static func merged(previous: String?, webPassword: String?, audioDevice: String?,
                       catalogServers: [String]? = nil) throws(ConfigurationError) -> String {
        // ConfigFile first: it refuses, with a line, input on which the TOML parser would abort.
        var root = TOMLTable()
        if let previous { root = try ConfigFile(text: previous, source: "config.toml").root }
        if let webPassword {
            update("web", in: root) { web in
                web["enabled"] = true
                web["bind"] = "::"
                web["port"] = 80
                web["password"] = webPassword
            }
        }
        if let audioDevice {
            update("audio", in: root) { audio in audio["device"] = audioDevice }
        }
        if let catalogServers {
            update("catalog", in: root) { catalog in catalog["servers"] = TOMLArray(catalogServers) }
        }
        let body = root.convert(to: .toml)
        return header + body + (body.hasSuffix("\n") || body.isEmpty ? "" : "\n")
    }

    /// Changes the table `name` of `root` in place, or adds it when missing (or when the key holds something
    /// else): the root stores a copy of a table assigned to it, so a new one is filled first.
    private static func update(_ name: String, in root: TOMLTable, _ change: (TOMLTable) -> Void) {
        if let table = root[name]?.table {
            change(table)
        } else {
            let table = TOMLTable()
            change(table)
            root[name] = table
        }
    }
}
