/// A key of a Linux input device (`KEY_VOLUMEUP` is 115), as evdev reports it and as ir-keytable's
/// keymaps name it: the IR remote's keys arrive as these codes.
public struct KeyCode: Sendable, Hashable, CustomStringConvertible {
    /// The code in `linux/input-event-codes.h`, at most `KEY_MAX` (0x2ff).
    public let rawValue: UInt16

    /// The largest key code (`KEY_MAX`).
    public static let maximum: UInt16 = 0x2ff

    /// The key with `rawValue`, or nil past `KEY_MAX`.
    public init?(rawValue: UInt16) {
        guard rawValue <= Self.maximum else { return nil }
        self.rawValue = rawValue
    }

    /// The key named `name` (`"KEY_MUTE"`, case as in the kernel's header), or nil when the kernel has none.
    public init?(name: String) {
        guard let code = Self.codesByName[name] else { return nil }
        rawValue = code
    }

    /// The kernel's name (the first, where it has several), or the number for a code without one.
    public var name: String { Self.namesByCode[rawValue] ?? "KEY_\(rawValue)" }

    public var description: String { name }

    private static let codesByName: [String: UInt16] = Dictionary(table.map { ($0.name, $0.code) }, uniquingKeysWith: { first, _ in first })
    private static let namesByCode: [UInt16: String] = Dictionary(table.map { ($0.code, $0.name) }, uniquingKeysWith: { first, _ in first })
}
