/// The boxes (ISO/IEC 14496-12 §4.2) in a range of a buffer, in order; iteration stops at the first box
/// whose size is impossible (smaller than its header, beyond the range).
struct MP4Boxes: Sequence, IteratorProtocol {
    struct Box {
        var type: String
        /// Where the box starts (its size field).
        var start: Int
        /// Its content, after the header.
        var body: Range<Int>
    }

    private let bytes: [UInt8]
    private var index: Int
    private let end: Int

    init(_ bytes: [UInt8], _ range: Range<Int>) {
        self.bytes = bytes
        index = Swift.max(range.lowerBound, 0)
        end = Swift.min(range.upperBound, bytes.count)
    }

    mutating func next() -> Box? {
        guard index <= end - 8 else { return nil }
        let size32 = Self.uint32(bytes, index)
        var header = 8
        let size: Int
        switch size32 {
        case 0:
            size = end - index
        case 1:
            guard index <= end - 16 else { return nil }
            header = 16
            let size64 = Self.uint64(bytes, index + 8)
            guard size64 <= UInt64(end - index) else { return nil }
            size = Int(size64)
        default:
            guard UInt64(size32) <= UInt64(end - index) else { return nil }
            size = Int(size32)
        }
        guard size >= header else { return nil }
        let box = Box(type: Self.fourCC(bytes, index + 4), start: index, body: (index + header)..<(index + size))
        index += size
        return box
    }

    static func fourCC(_ bytes: [UInt8], _ index: Int) -> String {
        String(decoding: bytes[index..<(index + 4)].map { $0 >= 0x20 && $0 < 0x7F ? $0 : 0x3F }, as: UTF8.self)
    }

    static func uint16(_ bytes: [UInt8], _ index: Int) -> UInt16 {
        UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
    }

    static func uint32(_ bytes: [UInt8], _ index: Int) -> UInt32 {
        UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
    }

    static func uint64(_ bytes: [UInt8], _ index: Int) -> UInt64 {
        UInt64(uint32(bytes, index)) << 32 | UInt64(uint32(bytes, index + 4))
    }
}
