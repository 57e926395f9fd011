import Foundation
import Hardware
import Threads

/// A chip of the kernel's `gpio-sim` driver, made through configfs for one test and removed after it.
///
/// The test drives the chip's lines from the outside the way a switch would, by setting each
/// line's simulated pull in sysfs (`sim_gpioN/pull`); the product's libgpiod code requests the
/// lines like real ones. Needs root and a kernel with `CONFIG_GPIO_SIM` (the gpio-vm guest).
public final class GPIOSimChip {
    /// Whether this kernel can make simulated chips (configfs mounted, gpio-sim built in).
    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: configRoot)
    }

    private static let configRoot = "/sys/kernel/config/gpio-sim"
    private let device: String
    private let lineNames: [Int: String]
    /// The kernel's name of the chip (`gpiochip1`).
    public let name: String
    /// The chip's label, unique to this chip.
    public let label: String
    private let sysfs: String

    /// A label no other chip has, for a chip that is made later (`init(lines:label:)`).
    public static func uniqueLabel() -> String { "sim-wd\(getpid())x\(UInt32.random(in: 0...UInt32.max))" }

    /// Makes a live chip with `lines` lines, a unique label (or `label`) and optional line names. Throws on any
    /// configfs failure.
    public init(lines: Int, lineNames: [Int: String] = [:], label: String = GPIOSimChip.uniqueLabel()) throws {
        device = "\(Self.configRoot)/\(label)"
        self.lineNames = lineNames
        self.label = label
        try Self.mkdir(device)
        try Self.mkdir("\(device)/bank0")
        try Self.write("\(lines)", to: "\(device)/bank0/num_lines")
        try Self.write(label, to: "\(device)/bank0/label")
        for (offset, lineName) in lineNames {
            try Self.mkdir("\(device)/bank0/line\(offset)")
            try Self.write(lineName, to: "\(device)/bank0/line\(offset)/name")
        }
        try Self.write("1", to: "\(device)/live")
        name = try Self.read("\(device)/bank0/chip_name")
        sysfs = "/sys/devices/platform/\(try Self.read("\(device)/dev_name"))/\(name)"
    }

    deinit {
        _ = try? Self.write("0", to: "\(device)/live")
        for offset in lineNames.keys { rmdir("\(device)/bank0/line\(offset)") }
        rmdir("\(device)/bank0")
        rmdir(device)
    }

    /// Pulls line `offset` up (the pin reads high) or down, as a switch or contact would. Throws on a sysfs failure.
    public func pull(_ offset: Int, high: Bool) throws {
        try Self.write(high ? "pull-up" : "pull-down", to: "\(sysfs)/sim_gpio\(offset)/pull")
    }

    /// What the pin of line `offset` reads now (physical level). Throws on a sysfs failure.
    public func value(_ offset: Int) throws -> Bool {
        try Self.read("\(sysfs)/sim_gpio\(offset)/value") == "1"
    }

    /// Drives a recorded or generated signal onto the lines: edge `i` of line `l` goes to offset
    /// `offsets[l]`, inverted where `activeLow[l]`, at its time relative to the first edge
    /// (times scaled by `timeScale`). Edges of one line closer than a write takes come back to
    /// back. When the playback is late (a stalled guest under software emulation), it stretches the
    /// signal rather than compress it: consecutive edges of different lines stay `minimumLineGap` ns
    /// apart, and an edge of a line comes no sooner after that line's previous edge than the signal
    /// has it (a late release would otherwise cut an 80 ms press to a glitch the debouncer drops).
    public func play(_ edges: [GPIOEdge], offsets: [Int], activeLow: [Bool], timeScale: Double = 1,
                     minimumLineGap: UInt64 = 0) throws {
        guard let first = edges.first?.timestamp else { return }
        let start = MonotonicClock.now()
        var previous: (line: Int, time: UInt64)?
        var previousOfLine: [Int: (signal: UInt64, written: UInt64)] = [:]
        for edge in edges {
            var due = start + UInt64(Double(edge.timestamp - first) * timeScale)
            if let previous, previous.line != edge.line { due = max(due, previous.time + minimumLineGap) }
            if let last = previousOfLine[edge.line] {
                due = max(due, last.written + UInt64(Double(edge.timestamp - last.signal) * timeScale))
            }
            let now = MonotonicClock.now()
            if due > now { usleep(UInt32(min((due - now) / 1_000, UInt64(UInt32.max)))) }
            try pull(offsets[edge.line], high: edge.level != activeLow[edge.line])
            previous = (edge.line, MonotonicClock.now())
            previousOfLine[edge.line] = (edge.timestamp, previous!.time)
        }
    }

    private static func mkdir(_ path: String) throws {
        guard Foundation.mkdir(path, 0o755) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, "errno": errno])
        }
    }

    private static func write(_ text: String, to path: String) throws {
        // sysfs and configfs attributes take one write(2) on the file itself, never a temporary file.
        let fd = open(path, O_WRONLY)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, "errno": errno]) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard Foundation.write(fd, bytes, bytes.count) == bytes.count else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, "errno": errno])
        }
    }

    private static func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
