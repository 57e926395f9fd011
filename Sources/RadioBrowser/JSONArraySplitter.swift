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
    private var sawElement = false
    private var offset = 0
    private let maximumElementSize: Int

    public init(maximumElementSize: Int = 1 << 20) {
        self.maximumElementSize = maximumElementSize
    }

    /// Feeds the next chunk; `onElement` receives each complete element's bytes.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, onElement: ([UInt8]) throws -> Void) throws {
        let chunk = bytes.bindMemory(to: UInt8.self)
        var index = 0
        // Where the part of the current element that lies in this chunk starts.
        var segmentStart = state == .inElement ? 0 : -1
        while index < chunk.count {
            let byte = chunk[index]
            switch state {
            case .start:
                if Self.isSpace(byte) || byte == 0xEF || byte == 0xBB || byte == 0xBF {  // whitespace, a UTF-8 BOM
                } else if byte == UInt8(ascii: "[") {
                    state = .beforeElement
                } else {
                    throw SplitError.notAnArray
                }
            case .beforeElement, .afterElement:
                if Self.isSpace(byte) {
                } else if byte == UInt8(ascii: "{") && (state == .beforeElement) {
                    state = .inElement
                    depth = 1
                    segmentStart = index
                } else if byte == UInt8(ascii: "]") && (state == .afterElement || !sawElement) {
                    state = .done
                } else if byte == UInt8(ascii: ",") && state == .afterElement {
                    state = .beforeElement
                } else {
                    throw SplitError.unexpectedByte(byte, offset: offset + index)
                }
            case .inElement:
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 {
                        element.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[segmentStart...index]))
                        try checkSize()
                        try onElement(element)
                        element.removeAll(keepingCapacity: true)
                        segmentStart = -1
                        sawElement = true
                        state = .afterElement
                    }
                }
            case .done:
                if !Self.isSpace(byte) { throw SplitError.unexpectedByte(byte, offset: offset + index) }
            }
            index += 1
        }
        if state == .inElement, segmentStart >= 0 {
            element.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[segmentStart..<chunk.count]))
            try checkSize()
        }
        offset += chunk.count
    }

    /// Checks that the document ended properly.
    public func finish() throws {
        guard state == .done else { throw state == .start ? SplitError.notAnArray : SplitError.truncated }
    }

    private func checkSize() throws {
        guard element.count <= maximumElementSize else { throw SplitError.elementTooLarge(limit: maximumElementSize) }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
