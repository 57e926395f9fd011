/// The driver of an HD44780-compatible character display in 4-bit mode, over any `LCDBus`.
///
/// `initialize()` runs the datasheet's initialisation by instruction, which brings the controller
/// into a known 4-bit state from any state it was left in (power-on, 8-bit mode, or half-way through
/// a byte after a crash). `render(_:)` loads the custom glyphs the frame uses into CGRAM (keeping
/// those already there), then writes only the cells that changed, in DDRAM order starting where the
/// cursor is, rewriting a single unchanged cell rather than moving the cursor over it.
///
/// Not thread-safe: one thread (the display's writer) owns it and its bus.
public final class HD44780 {
    public let geometry: LCDGeometry
    private let bus: LCDBus
    /// The codes in the visible DDRAM cells, or nil when unknown (before initialisation, after a bus error).
    private var shown: [[UInt8]]?
    /// What each CGRAM slot holds.
    private var slots: [LCDGlyph?] = Array(repeating: nil, count: 8)
    /// The address counter when it points into DDRAM and is known.
    private var cursor: UInt8?

    // Execution times from the HD44780U datasheet (37 µs, 41 µs, 1.52 ms at fosc 270 kHz), with margin for
    // clones running their oscillator as slow as 150 kHz. Over a PCF8574 at 100 kHz the next nibble comes
    // 180 µs later anyway; only the clear needs an explicit wait there.
    static let instructionMicroseconds = 80
    static let dataMicroseconds = 80
    static let clearMicroseconds = 3_000
    static let powerOnMicroseconds = 50_000  // more than 40 ms after Vcc reaches 2.7 V
    static let firstResetMicroseconds = 4_500  // more than 4.1 ms
    static let resetMicroseconds = 150  // more than 100 µs

    /// Creates the driver; nothing is sent until `initialize()` or the first `render(_:)`.
    public init(bus: LCDBus, geometry: LCDGeometry) {
        self.bus = bus
        self.geometry = geometry
    }

    /// Brings the controller into 4-bit, two-line, 5x8 mode with a blank screen, the display on and the
    /// cursor off, from whatever state it was in. Takes about 58 ms (mostly the power-on wait).
    ///
    /// - Throws: the bus's error; the driver then re-initialises on the next render.
    public func initialize() throws {
        shown = nil
        cursor = nil
        slots = Array(repeating: nil, count: 8)
        try bus.pause(microseconds: Self.powerOnMicroseconds)
        // Three times "8-bit function set" as a lone nibble: whatever the interface state was, after these
        // the controller is in 8-bit mode; "0x2" then switches it to 4-bit with the nibbles aligned.
        try bus.writeNibble(0x3, register: .instruction, executionMicroseconds: Self.firstResetMicroseconds)
        try bus.writeNibble(0x3, register: .instruction, executionMicroseconds: Self.resetMicroseconds)
        try bus.writeNibble(0x3, register: .instruction, executionMicroseconds: Self.resetMicroseconds)
        try bus.writeNibble(0x2, register: .instruction, executionMicroseconds: Self.resetMicroseconds)
        try instruction(0x28)  // function set: 4-bit, two lines, 5x8 dots
        try instruction(0x08)  // display off
        try instruction(0x01, executionMicroseconds: Self.clearMicroseconds)  // clear, address 0, no shift
        try instruction(0x06)  // entry mode: increment, no display shift
        try instruction(0x0C)  // display on, cursor off, blink off
        try bus.flush()
        shown = Array(repeating: Array(repeating: 0x20, count: geometry.columns), count: geometry.rows)
        cursor = 0
    }

    /// Switches the backlight.
    ///
    /// - Throws: the bus's error.
    public func setBacklight(_ on: Bool) throws {
        try bus.setBacklight(on)
    }

    /// Shows `frame`, sending only what differs from what is on the display; initialises first when needed.
    ///
    /// - Returns: what it cost on the bus.
    /// - Throws: the bus's error; the screen then counts as unknown and the next render starts with
    ///   `initialize()` and a full redraw.
    @discardableResult
    public func render(_ frame: LCDFrame) throws -> LCDFrameReport {
        precondition(frame.geometry == geometry, "frame is \(frame.geometry), display is \(geometry)")
        let before = bus.statistics
        var report = LCDFrameReport()
        do {
            if shown == nil {
                try initialize()
                report.initialised = true
            }
            let codes = try loadGlyphs(for: frame, report: &report)
            try writeChanges(codes, report: &report)
            try bus.flush()
        } catch {
            shown = nil
            cursor = nil
            throw error
        }
        let cost = bus.statistics.since(before)
        report.bytes = cost.bytes
        report.busMicroseconds = cost.busMicroseconds
        report.waitMicroseconds = cost.waitMicroseconds
        return report
    }

    // MARK: CGRAM

    /// Puts every glyph of the frame in a slot (keeping slots that already hold it, reusing slots whose
    /// glyph left the screen) and returns the frame as character codes.
    private func loadGlyphs(for frame: LCDFrame, report: inout LCDFrameReport) throws -> [[UInt8]] {
        var wanted: [LCDGlyph] = []
        for row in frame.cells {
            for case let .glyph(glyph) in row where !wanted.contains(glyph) {
                wanted.append(glyph)
            }
        }
        var slotOf: [LCDGlyph: UInt8] = [:]
        for glyph in wanted {
            if let slot = slots.firstIndex(of: glyph) {
                slotOf[glyph] = UInt8(slot)
            }
        }
        let taken = Set(slotOf.values)
        // Empty slots first, then slots holding glyphs no longer on screen.
        var free = (0..<8).filter { !taken.contains(UInt8($0)) }.sorted { (slots[$0] == nil ? 0 : 1) < (slots[$1] == nil ? 0 : 1) }
        for glyph in wanted where slotOf[glyph] == nil {
            guard !free.isEmpty else { break }
            let slot = free.removeFirst()
            try instruction(0x40 | UInt8(slot) << 3)
            for row in glyph.rows {
                try data(row)
            }
            slots[slot] = glyph
            slotOf[glyph] = UInt8(slot)
            cursor = nil
            report.glyphsLoaded += 1
        }
        return frame.cells.map { row in
            row.map { cell in
                switch cell {
                case let .code(code): return code
                case let .glyph(glyph): return slotOf[glyph] ?? glyph.fallback
                }
            }
        }
    }

    // MARK: DDRAM

    /// The address the counter moves to after a write at `address` in two-line mode.
    private func next(_ address: UInt8) -> UInt8 {
        switch address {
        case 0x27: return 0x40
        case 0x67: return 0x00
        default: return address + 1
        }
    }

    private func writeChanges(_ codes: [[UInt8]], report: inout LCDFrameReport) throws {
        guard var shown else { return }
        // Every visible cell in DDRAM order.
        var cells: [(address: UInt8, row: Int, column: Int)] = []
        for row in 0..<geometry.rows {
            for column in 0..<geometry.columns {
                cells.append((geometry.address(row: row, column: column), row, column))
            }
        }
        cells.sort { $0.address < $1.address }
        let changed = cells.filter { codes[$0.row][$0.column] != shown[$0.row][$0.column] }
        guard !changed.isEmpty else { return }
        // Start with the first change at or after the cursor, wrapping around.
        let start = cursor.flatMap { position in changed.firstIndex { $0.address >= position } } ?? 0
        let ordered = changed[start...] + changed[..<start]
        for cell in ordered {
            if cursor != cell.address {
                if let position = cursor, next(position) == cell.address, let gap = geometry.cell(at: position) {
                    // One unchanged cell in between: rewriting it costs less than moving the cursor.
                    try data(shown[gap.row][gap.column])
                    report.cellsWritten += 1
                } else {
                    try instruction(0x80 | cell.address)
                    report.cursorMoves += 1
                }
            }
            try data(codes[cell.row][cell.column])
            shown[cell.row][cell.column] = codes[cell.row][cell.column]
            cursor = next(cell.address)
            report.cellsWritten += 1
        }
        self.shown = shown
    }

    // MARK: Bytes

    private func instruction(_ value: UInt8, executionMicroseconds: Int = instructionMicroseconds) throws {
        try bus.writeNibble(value >> 4, register: .instruction, executionMicroseconds: 0)
        try bus.writeNibble(value & 0x0F, register: .instruction, executionMicroseconds: executionMicroseconds)
    }

    private func data(_ value: UInt8) throws {
        try bus.writeNibble(value >> 4, register: .data, executionMicroseconds: 0)
        try bus.writeNibble(value & 0x0F, register: .data, executionMicroseconds: Self.dataMicroseconds)
    }
}

/// What one `render(_:)` cost on the bus.
public struct LCDFrameReport: Equatable, Sendable {
    /// Bytes sent on the wire.
    public var bytes = 0
    /// Time the wire was busy, in microseconds.
    public var busMicroseconds: Double = 0
    /// Time spent waiting for slow instructions, in microseconds.
    public var waitMicroseconds = 0
    /// DDRAM cells written (changed cells, plus single unchanged cells rewritten instead of a cursor move).
    public var cellsWritten = 0
    /// Set-DDRAM-address instructions sent.
    public var cursorMoves = 0
    /// Custom glyphs written into CGRAM.
    public var glyphsLoaded = 0
    /// True when the controller was (re)initialised first.
    public var initialised = false

    public init() {}

    /// Bus time in milliseconds.
    public var busMilliseconds: Double { busMicroseconds / 1_000 }
}
