import Foundation

/// A small tz database in a temporary folder (`zone1970.tab`, `iso3166.tab` and a few zone files), so the
/// tests pass on a machine without tzdata; ``systemZoneinfo`` is the real one where installed. Used by the
/// setup file's tests and the web page's settings screen's.
public enum TZDataFixture {
    public static let zone1970 = """
        # tzdb timezone descriptions, a few lines of them
        #codes\tcoordinates\tTZ\tcomments
        BR\t-2332-04637\tAmerica/Sao_Paulo\tBrazil (southeast: GO, DF, MG, ES, RJ, SP, PR, SC, RS)
        DE,DK,NO,SE,SJ\t+5230+01322\tEurope/Berlin\tmost of Germany
        GB,GG,IM,JE\t+513030-0000731\tEurope/London
        US\t+404251-0740023\tAmerica/New_York\tEastern (most areas)

        """

    public static let iso3166 = """
        # ISO 3166 alpha-2 country codes
        BR\tBrazil
        DE\tGermany
        GB\tBritain (UK)
        US\tUnited States

        """

    public static let zones = ["Europe/Berlin", "Europe/London", "America/New_York", "America/Sao_Paulo", "Etc/UTC"]

    /// Makes the folder inside `parent` and returns its path.
    public static func make(in parent: URL) throws -> String {
        let folder = parent.appendingPathComponent("zoneinfo")
        for zone in zones {
            let file = folder.appendingPathComponent(zone)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("TZif2 fixture".utf8).write(to: file)
        }
        try zone1970.write(to: folder.appendingPathComponent("zone1970.tab"), atomically: false, encoding: .utf8)
        try iso3166.write(to: folder.appendingPathComponent("iso3166.tab"), atomically: false, encoding: .utf8)
        return folder.path
    }

    /// Debian's tzdata, when this machine has it.
    public static var systemZoneinfo: String? {
        FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/zone1970.tab") ? "/usr/share/zoneinfo" : nil
    }
}
