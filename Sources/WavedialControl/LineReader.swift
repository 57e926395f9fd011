/// Splits a byte stream into lines, refusing lines longer than a bound.
public struct LineReader {
    public let maximumLength: Int
    private var pending: [UInt8] = []

    public init(maximumLength: Int) { self.maximumLength = maximumLength }

    public enum Line: Equatable {
        case line(String)
        case tooLong
    }

    /// Adds bytes; returns the complete lines they finish.
    public mutating func feed(_ bytes: [UInt8]) -> [Line] {
        var lines: [Line] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if pending.count > maximumLength {
                    lines.append(.tooLong)
                } else {
                    lines.append(.line(String(decoding: pending, as: UTF8.self)))
                }
                pending.removeAll(keepingCapacity: true)
            } else if pending.count <= maximumLength {
                pending.append(byte)
            }
        }
        if pending.count > maximumLength { lines.append(.tooLong); pending.removeAll() }
        return lines
    }
}
