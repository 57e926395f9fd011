import ArgumentParser
import Audio
import Foundation
import Logging
import PrintableText

/// `wavedial check-url URL [--json]`: resolves and probes a stream without playing it.
struct CheckURLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-url",
        abstract: "Resolve and probe a stream URL: final URL, codec, bitrate, format, ICY name and title.",
        discussion: "Exits 1 with the reason when the stream cannot be played.")

    @Argument(help: "Stream or playlist URL (http or https).")
    var url: String

    @Flag(help: "Print one JSON object: playable, reason, url, codec, bitrate, sample_rate, channels, hls, name, title.")
    var json = false

    @OptionGroup var global: GlobalOptions

    @Option(parsing: .unconditional, help: "Seconds to try before giving up.")
    var timeout: Double = 10

    func validate() throws {
        try StreamURLArgument.validate(url)
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }  // NaN too
        guard timeout <= 3600 else { throw ValidationError("--timeout must be at most 3600") }
    }

    func run() throws {
        var logger = Logger(label: "wavedial.audio")
        logger.logLevel = .error
        let settings = try global.loadConfiguration().audio
        let result = StreamProbe.probe(url: url, settings: settings, timeout: timeout, logger: logger)
        if json {
            print(Output.terminalSafe(json: Self.json(result)))
        } else {
            print(Self.text(result))
        }
        if let failure = result.failure {
            throw CLIError(StationText.printable("cannot play \(url): \(failure.code) (\(failure.detail))"))
        }
    }

    /// One `key: value` line each; what the station sent is printed without control or bidi characters.
    private static func text(_ result: StreamProbeResult) -> String {
        var lines = ["url: \(result.url)", "playable: \(result.playable ? "yes" : "no")", "hls: \(result.hls ? "yes" : "no")"]
        if let failure = result.failure { lines.append("reason: \(failure.code) (\(failure.detail))") }
        if let codec = result.codec { lines.append("codec: \(codec)") }
        if let bitrate = result.bitrate { lines.append("bitrate: \(bitrate) kbit/s") }
        if let rate = result.sampleRate, let channels = result.channels { lines.append("format: \(rate) Hz, \(channels) ch") }
        if let name = result.name { lines.append("name: \(name)") }
        if let title = result.title { lines.append("title: \(title)") }
        return lines.map(StationText.printable).joined(separator: "\n")
    }

    /// Key order fixed, `null` for what is unknown; reason is the failure's stable identifier.
    static func json(_ result: StreamProbeResult) -> String {
        func string(_ value: String?) -> String {
            guard let value else { return "null" }
            let data = try? JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes])
            let array = data.map { String(decoding: $0, as: UTF8.self) } ?? "[\"\"]"
            return String(array.dropFirst().dropLast())
        }
        func number(_ value: Int?) -> String { value.map(String.init) ?? "null" }
        let fields = [
            ("playable", result.playable ? "true" : "false"),
            ("reason", string(result.failure?.code.identifier)),
            ("url", string(result.url)),
            ("codec", string(result.codec)),
            ("bitrate", number(result.bitrate)),
            ("sample_rate", number(result.sampleRate)),
            ("channels", number(result.channels)),
            ("hls", result.hls ? "true" : "false"),
            ("name", string(result.name)),
            ("title", string(result.title)),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
