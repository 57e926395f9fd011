import CurlSupport

/// Player settings as command-line arguments: how `wavedial play-url`, which reads the
/// configuration, hands it to the `wavedial-player` process it becomes (see that executable).
extension PlayerSettings {
    /// A setting that is not one of ``PlayerSettings``, or a value that does not parse.
    public struct ArgumentError: Error, CustomStringConvertible {
        public let description: String
    }

    private enum Field {
        case number(WritableKeyPath<PlayerSettings, Double>)
        case integer(WritableKeyPath<PlayerSettings, Int>)
        case text(WritableKeyPath<PlayerSettings, String>)
        /// Address ranges, comma-separated (`127.0.0.1/32,::1/128`; empty for none).
        case networks(WritableKeyPath<PlayerSettings, [IPNetwork]>)
        /// A loudness in ``PlayerSettings/loudnessTargetRange``, or `off` for nil.
        case loudness(WritableKeyPath<PlayerSettings, Double?>)
    }

    /// Every setting by its option name; all of them are passed, so the player plays exactly as configured.
    /// Made at each use (a key path is no `Sendable` value to keep in a static).
    private static var fields: [(key: String, value: Field)] { [
        ("--device", .text(\.output.device)),
        ("--alsa-buffer-seconds", .number(\.output.bufferSeconds)),
        ("--alsa-period-seconds", .number(\.output.periodSeconds)),
        ("--connect-timeout", .number(\.source.connectTimeout)),
        ("--stall-timeout", .number(\.source.stallTimeout)),
        ("--max-redirects", .integer(\.source.maximumRedirects)),
        ("--user-agent", .text(\.source.userAgent)),
        ("--reconnect-initial-delay", .number(\.reconnect.initialDelay)),
        ("--reconnect-fast-cap", .number(\.reconnect.fastCap)),
        ("--reconnect-fast-window", .number(\.reconnect.fastWindow)),
        ("--reconnect-max-delay", .number(\.reconnect.maximumDelay)),
        ("--device-retry-initial-delay", .number(\.deviceRetry.initialDelay)),
        ("--device-retry-fast-cap", .number(\.deviceRetry.fastCap)),
        ("--device-retry-fast-window", .number(\.deviceRetry.fastWindow)),
        ("--device-retry-max-delay", .number(\.deviceRetry.maximumDelay)),
        ("--prebuffer-seconds", .number(\.prebufferSeconds)),
        ("--buffer-seconds", .number(\.maximumLeadSeconds)),
        ("--timeshift-seconds", .number(\.timeShiftSeconds)),
        ("--start-timeout", .number(\.startTimeout)),
        ("--fade-seconds", .number(\.fadeSeconds)),
        ("--volume", .number(\.volume)),
        ("--hls-max-bandwidth", .integer(\.hlsBandwidthLimit)),
        ("--allowed-addresses", .networks(\.source.allowedAddresses)),
        ("--loudness-target", .loudness(\.loudnessTarget)),
    ] }

    /// `--name value` pairs for every setting (numbers in Swift's shortest exact form).
    public var arguments: [String] {
        Self.fields.flatMap { name, field -> [String] in
            switch field {
            case .number(let path): [name, self[keyPath: path].description]
            case .integer(let path): [name, String(self[keyPath: path])]
            case .text(let path): [name, self[keyPath: path]]
            case .networks(let path): [name, self[keyPath: path].map(\.description).joined(separator: ",")]
            case .loudness(let path): [name, self[keyPath: path]?.description ?? "off"]
            }
        }
    }

    /// Reads `--name value` pairs made by ``arguments``; a setting left out keeps its default.
    public init(arguments: some Sequence<String>) throws {
        self.init()
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            guard let field = Self.fields.first(where: { $0.key == name })?.value else {
                throw ArgumentError(description: "unknown setting \(name)")
            }
            guard let value = iterator.next() else { throw ArgumentError(description: "\(name) needs a value") }
            switch field {
            case .number(let path):
                guard let number = Double(value), number.isFinite else {
                    throw ArgumentError(description: "\(name) needs a number, not \(value)")
                }
                self[keyPath: path] = number
            case .integer(let path):
                guard let integer = Int(value) else { throw ArgumentError(description: "\(name) needs a whole number, not \(value)") }
                self[keyPath: path] = integer
            case .text(let path):
                self[keyPath: path] = value
            case .networks(let path):
                var networks: [IPNetwork] = []
                for text in value.split(separator: ",") {
                    guard let network = IPNetwork(String(text)) else {
                        throw ArgumentError(description: "\(name) needs addresses or ranges (10.0.0.0/8), not \(text)")
                    }
                    networks.append(network)
                }
                self[keyPath: path] = networks
            case .loudness(let path):
                if value == "off" {
                    self[keyPath: path] = nil
                } else if let number = Double(value), Self.loudnessTargetRange.contains(number) {
                    self[keyPath: path] = number
                } else {
                    throw ArgumentError(description: "\(name) needs a loudness from -40 to -10 LUFS or off, not \(value)")
                }
            }
        }
    }
}

extension PlayerSettings {
    /// ``HLSSettings/maximumBandwidth`` as a number for the argument list: 0 for no limit.
    var hlsBandwidthLimit: Int {
        get { hls.maximumBandwidth ?? 0 }
        set { hls.maximumBandwidth = newValue > 0 ? newValue : nil }
    }
}
