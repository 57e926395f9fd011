import Foundation

/// The demo band's audio: one loop a station, made on this machine at first use and kept.
///
/// Each loop (``DemoStation/loopSeconds`` long, 48 kHz stereo) is a chord on the station's tone, its upper
/// voices swelling in turn, with a spoken ident at its start ("You are listening to Радио Волна, ninety-one
/// point seven": espeak-ng, the name in its own language's voice) over which the chord ducks, as a
/// presenter's microphone ducks the music; every partial is a whole number of cycles per loop, so the loop
/// joins without a click. ffmpeg mixes and encodes it in the station's
/// format. Files are written under a temporary name and renamed, so a stop half-way or a second daemon
/// making the same file leaves no broken one. Call from one thread.
public struct DemoMedia: Sendable {
    /// Part of the cache folder's name: a new recipe gets a new folder rather than old files.
    public static let version = "v1"

    /// The folder holding the files.
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The cache folder: `$XDG_CACHE_HOME/wavedial/demo-v1` when that is set, else `demo-media-v1` beside
    /// the database (the daemon's own writable folder).
    public static func defaultDirectory(environment: [String: String], databasePath: String) -> String {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return "\(cache)/wavedial/demo-\(version)"
        }
        let folder = URL(fileURLWithPath: databasePath).deletingLastPathComponent().path
        return "\(folder)/demo-media-\(version)"
    }

    /// Where `station`'s loop is (or will be).
    public func path(of station: DemoStation) -> String {
        "\(directory)/\(station.slug).\(station.encoding.fileExtension)"
    }

    /// Whether every station's loop is there.
    public func isComplete(_ stations: [DemoStation]) -> Bool {
        stations.allSatisfy { Self.isMade(path(of: $0)) }
    }

    /// Makes the loops that are missing, telling `progress` (made so far, to make) before each.
    /// - Parameter searchPath: where to look for espeak-ng and ffmpeg (a `PATH` value).
    /// - Throws: ``DemoBandError``: `missingTools` naming the Debian packages to install, `cancelled` when
    ///   `shouldContinue` turned false (the tool running is killed), `toolFailed`, `cacheUnwritable`.
    public func make(_ stations: [DemoStation], searchPath: String, shouldContinue: () -> Bool,
                     progress: (_ made: Int, _ total: Int) -> Void) throws {
        let missing = stations.filter { !Self.isMade(path(of: $0)) }
        guard !missing.isEmpty else { return }
        let speech = ToolProcess.find("espeak-ng", path: searchPath)
        let mixer = ToolProcess.find("ffmpeg", path: searchPath)
        guard let speech, let mixer else {
            throw DemoBandError.missingTools((speech == nil ? ["espeak-ng"] : []) + (mixer == nil ? ["ffmpeg"] : []))
        }
        let work = "\(directory)/work-\(getpid())"
        do {
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        } catch {
            throw DemoBandError.cacheUnwritable(directory, reason: "\(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(atPath: work) }
        for (index, station) in missing.enumerated() {
            progress(index, missing.count)
            let ident = "\(work)/\(station.slug).wav"
            try ToolProcess(executable: speech, arguments: ["-m", "-v", "en", "-s", "150", "-w", ident, Self.identSSML(station)])
                .run(errorLog: "\(work)/espeak-ng.log", shouldContinue: shouldContinue)
            let target = path(of: station)
            let partial = "\(work)/\(station.slug).\(station.encoding.fileExtension)"
            try ToolProcess(executable: mixer, arguments: Self.mixArguments(station, ident: ident, output: partial))
                .run(errorLog: "\(work)/ffmpeg.log", shouldContinue: shouldContinue)
            guard rename(partial, target) == 0 else {
                throw DemoBandError.cacheUnwritable(target, reason: String(cString: strerror(errno)))
            }
        }
        progress(missing.count, missing.count)
    }

    private static func isMade(_ path: String) -> Bool {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) > 0
    }

    /// The ident as SSML: English around the name, which its own language's voice reads.
    static func identSSML(_ station: DemoStation) -> String {
        // The name without the frequency it ends with: the English voice reads that out.
        let name = station.name.split(separator: " ").dropLast().joined(separator: " ")
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        return "<speak>You are listening to <voice xml:lang=\"\(escaped(station.voice))\">\(escaped(name))</voice>, "
            + "\(escaped(station.spokenFrequency)). Wavedial demo band.</speak>"
    }

    /// ffmpeg's arguments: the chord (aevalsrc), ducked under the ident (which starts half a second in) by a
    /// side-chain compressor, mixed with it and limited below full scale (espeak-ng speaks at full scale).
    static func mixArguments(_ station: DemoStation, ident: String, output: String) -> [String] {
        let tone = station.toneHz
        let loop = DemoStation.loopSeconds
        // Three upper voices (major third, fifth, octave), each swelling in and out once every 16 s, a
        // third of a turn apart; with the loop a multiple of 16 s and of every voice's period, it joins cleanly.
        func voice(_ ratio: String, _ level: String, _ phase: String) -> String {
            "\(level)*(0.5-0.5*cos(2*PI*t/16+\(phase)))*sin(2*PI*\(tone)*\(ratio)*t)"
        }
        let chord = ["0.30*sin(2*PI*\(tone)*t)", voice("1.25", "0.07", "0"), voice("1.5", "0.07", "2.0944"),
                     voice("2", "0.05", "4.1888")].joined(separator: "+")
        var arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-threads", "1", "-i", ident,
                         "-f", "lavfi", "-i", "aevalsrc=exprs='\(chord)':s=48000:d=\(loop)"]
        arguments += ["-filter_complex",
                      "[0:a]aresample=48000,adelay=500,apad,volume=0.9,asplit=2[key][ident];"
                        + "[1:a][key]sidechaincompress=threshold=0.02:ratio=10:attack=5:release=400[bed];"
                        + "[bed][ident]amix=inputs=2:duration=first:normalize=0,alimiter=limit=0.95:level=false,"
                        + "pan=stereo|c0=c0|c1=c0[out]",
                      "-map", "[out]", "-fflags", "+bitexact", "-flags:a", "+bitexact"]
        return arguments + station.encoding.ffmpegOutput + [output]
    }
}
