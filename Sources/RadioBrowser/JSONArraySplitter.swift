/// Splits a JSON array of objects arriving in chunks into its elements, so that a
/// 50,000-station download is parsed one station at a time and never held whole.
///
/// It tracks only strings, escapes and nesting; each element's bytes are handed to the
/// caller to decode. Syntax the splitter can see (no opening `[`, stray bytes between
/// elements, a truncated document) is an error.
public struct JSONArraySplitter {
    public enum SplitError: Error, Equatable, CustomStringConvertible {
        case notAnArray
        case unexpectedByte(UInt8, offset: Int)
        case truncated
        case elementTooLarge(limit: Int)

        public var description: String {
            switch self {
            case .notAnArray: return "the response is not a JSON array"
            case .unexpectedByte(let byte, let offset):
                return "malformed JSON: unexpected '\(Character(Unicode.Scalar(byte)))' at byte \(offset)"
            case .truncated: return "the JSON document ended early (truncated download)"
            case .elementTooLarge(let limit): return "a record is larger than \(limit) bytes"
            }
        }
    }

    private enum State { case start, beforeElement, inElement, afterElement, done }

    private var state = State.start
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var element: [UInt8] = []
    private var offset = 0
    private let maximumElementSize: Int

    public init(maximumElementSize: Int = 1 << 20) {
        self.maximumElementSize = maximumElementSize
    }

    /// Feeds the next chunk; `onElement` receives each complete element's bytes.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, onElement: ([UInt8]) throws -> Void) throws {
        for byte in bytes {
            defer { offset += 1 }
            switch state {
            case .start:
                if Self.isSpace(byte) || (offset == 0 && byte == 0xEF) || byte == 0xBB || byte == 0xBF { continue }
                guard byte == UInt8(ascii: "[") else { throw SplitError.notAnArray }
                state = .beforeElement
            case .beforeElement:
                if Self.isSpace(byte) { continue }
                if byte == UInt8(ascii: "]") && element.isEmpty { state = .done; continue }
                guard byte == UInt8(ascii: "{") else { throw SplitError.unexpectedByte(byte, offset: offset) }
                state = .inElement
                try consume(byte, onElement: onElement)
            case .inElement:
                try consume(byte, onElement: onElement)
            case .afterElement:
                if Self.isSpace(byte) { continue }
                if byte == UInt8(ascii: ",") { state = .beforeElement; continue }
                if byte == UInt8(ascii: "]") { state = .done; continue }
                throw SplitError.unexpectedByte(byte, offset: offset)
            case .done:
                if Self.isSpace(byte) { continue }
                throw SplitError.unexpectedByte(byte, offset: offset)
            }
        }
    }

    /// Checks that the document ended properly.
    public func finish() throws {
        guard state == .done else { throw state == .start ? SplitError.notAnArray : SplitError.truncated }
    }

    private mutating func consume(_ byte: UInt8, onElement: ([UInt8]) throws -> Void) throws {
        element.append(byte)
        guard element.count <= maximumElementSize else { throw SplitError.elementTooLarge(limit: maximumElementSize) }
        if inString {
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            return
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
        default:
            break
        }
        if depth == 0 {
            try onElement(element)
            element.removeAll(keepingCapacity: true)
            state = .afterElement
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
