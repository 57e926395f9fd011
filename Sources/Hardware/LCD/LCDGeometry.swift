/// The shape of an HD44780-compatible character display: columns, rows and where each row starts in DDRAM.
///
/// Supported: 16x2, 20x2, 16x4 and 20x4, all driven in two-line mode (a four-row display is two
/// 40-character DDRAM lines folded in half). A value type; any thread may use it.
public struct LCDGeometry: Hashable, Sendable, CustomStringConvertible {
    /// Visible cells per row.
    public let columns: Int
    /// Visible rows.
    public let rows: Int

    /// A 16x2 display.
    public static let size16x2 = LCDGeometry(uncheckedColumns: 16, rows: 2)
    /// A 20x2 display.
    public static let size20x2 = LCDGeometry(uncheckedColumns: 20, rows: 2)
    /// A 16x4 display.
    public static let size16x4 = LCDGeometry(uncheckedColumns: 16, rows: 4)
    /// A 20x4 display.
    public static let size20x4 = LCDGeometry(uncheckedColumns: 20, rows: 4)

    /// Every geometry the driver supports.
    public static let supported: [LCDGeometry] = [.size16x2, .size20x2, .size16x4, .size20x4]

    /// Creates a geometry, checking that it is one the driver supports.
    ///
    /// - Throws: `LCDGeometryError.unsupported` for anything other than 16 or 20 columns by 2 or 4 rows.
    public init(columns: Int, rows: Int) throws {
        guard (columns == 16 || columns == 20) && (rows == 2 || rows == 4) else {
            throw LCDGeometryError.unsupported(columns: columns, rows: rows)
        }
        self.columns = columns
        self.rows = rows
    }

    private init(uncheckedColumns columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// The DDRAM address of the first cell of `row`: rows 0 and 1 start the two 40-byte lines
    /// (0x00, 0x40); rows 2 and 3 continue them right after the visible width.
    public func rowAddress(_ row: Int) -> UInt8 {
        let line: UInt8 = row % 2 == 0 ? 0x00 : 0x40
        return line + (row >= 2 ? UInt8(columns) : 0)
    }

    /// The DDRAM address of the cell at `row`, `column` (display not shifted).
    public func address(row: Int, column: Int) -> UInt8 {
        rowAddress(row) + UInt8(column)
    }

    /// The visible cell shown from DDRAM `address`, or nil when that address is off screen.
    public func cell(at address: UInt8) -> (row: Int, column: Int)? {
        for row in 0..<rows {
            let start = rowAddress(row)
            if address >= start && address < start + UInt8(columns) {
                return (row, Int(address - start))
            }
        }
        return nil
    }

    public var description: String { "\(columns)x\(rows)" }
}

/// A display size the HD44780 driver cannot drive.
public enum LCDGeometryError: Error, Equatable, CustomStringConvertible {
    /// Only 16 or 20 columns by 2 or 4 rows are supported.
    case unsupported(columns: Int, rows: Int)

    public var description: String {
        switch self {
        case let .unsupported(columns, rows):
            return "unsupported LCD size \(columns)x\(rows) (supported: 16x2, 20x2, 16x4, 20x4)"
        }
    }
}
