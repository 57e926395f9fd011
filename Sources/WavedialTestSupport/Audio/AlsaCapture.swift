import Foundation

/// Captures what reaches ALSA: an alsa-lib `file` PCM over `null`, defined in a test asoundrc.
///
/// `ALSA_CONFIG_PATH` is set once per test process, before the first PCM is opened; the device
/// `wdcapture:FILE="<path>"` then writes raw S16_LE frames to that file (unpaced: `null` never blocks).
/// The same asoundrc names the unpluggable test device (`UnpluggableAlsaDevice`), whose plugin is built on first use.
public enum AlsaCapture {
    /// This process's folder for the asoundrc and the fault plugin.
    static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wavedial-alsa-\(getpid())")

    static let configured: Void = {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("asound.conf")
        let text = """
        pcm_type.wdfault {
            lib "\(UnpluggableAlsaDevice.pluginPath)"
        }
        pcm.wdfault {
            @args [ FILE FAULT ]
            @args.FILE { type string }
            @args.FAULT { type string }
            type wdfault
            file $FILE
            fault $FAULT
        }
        pcm.wdcapture {
            @args [ FILE ]
            @args.FILE { type string }
            type file
            slave.pcm "null"
            file $FILE
            format "raw"
        }
        """
        try? text.write(to: config, atomically: true, encoding: .utf8)
        setenv("ALSA_CONFIG_PATH", "/usr/share/alsa/alsa.conf:\(config.path)", 1)
    }()

    /// A fresh capture file and the ALSA device name that writes to it.
    public static func device(named name: String) -> (device: String, file: URL) {
        _ = configured
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("wavedial-capture-\(getpid())-\(name)-\(UUID().uuidString.prefix(8)).raw")
        return ("wdcapture:FILE=\"\(file.path)\"", file)
    }

    /// A fresh capture file and a device that fills it at the device's rate, as a sound card plays
    /// (`Tests/AudioTests/Fixtures/pacer.py` behind the `file` plugin's pipe): a write blocks once the pipe
    /// is full, so a player keeps its lead in its own buffers as it does on a device.
    public static func pacedDevice(named name: String) -> (device: String, file: URL) {
        let (_, file) = device(named: name)
        let pacer = ProjectPaths.root.appendingPathComponent("Tests/AudioTests/Fixtures/pacer.py").path
        return ("wdcapture:FILE=\"|exec python3 \(pacer) %r %c \(file.path)\"", file)
    }

    /// The captured interleaved samples.
    public static func samples(in file: URL) -> [Int16] {
        guard let data = FileManager.default.contents(atPath: file.path) else { return [] }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }
}

/// Checks on captured PCM.
public enum PCMAnalysis {
    /// The dominant frequency of one channel, from its rising crossings (with hysteresis, so MP3 noise
    /// around zero does not count), over the loud part of the capture. The hysteresis is ±1000, or a quarter
    /// of the loudest sample for a quieter capture (the loudness stage and the volume scale a tone down), but
    /// not under the ±64 of silence.
    public static func frequency(_ samples: [Int16], channels: Int, sampleRate: Int, channel: Int = 0) -> Double {
        let mono = stride(from: channel, to: samples.count, by: channels).map { Int($0 < samples.count ? samples[$0] : 0) }
        let hysteresis = max(min(1000, (mono.map(abs).max() ?? 0) / 4), 64)
        var rising: [Int] = []
        var low = false
        for (index, value) in mono.enumerated() {
            if value < -hysteresis { low = true } else if value > hysteresis && low { low = false; rising.append(index) }
        }
        guard rising.count > 2 else { return 0 }
        // Median period between rising crossings: robust against the fade edges and a splice.
        let periods = zip(rising.dropFirst(), rising).map { $0 - $1 }.sorted()
        let total = periods.reduce(0, +) - periods.prefix(periods.count / 10).reduce(0, +) - periods.suffix(periods.count / 10).reduce(0, +)
        let kept = periods.count - 2 * (periods.count / 10)
        return Double(sampleRate) / (Double(total) / Double(kept))
    }

    /// The power of one channel at `frequency` (Goertzel's algorithm over the whole of `samples`, normalised
    /// by its length): compared across frequencies, it says which tone a capture holds even under speech.
    public static func power(_ samples: [Int16], channels: Int, sampleRate: Int, frequency: Double, channel: Int = 0) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / Double(sampleRate))
        var previous = 0.0, beforePrevious = 0.0
        var count = 0
        for index in stride(from: channel, to: samples.count, by: channels) {
            let current = Double(samples[index]) + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
            count += 1
        }
        guard count > 0 else { return 0 }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        return power / Double(count * count)
    }

    /// The longest run of near-silent frames, in frames, between the first and the last loud frame.
    public static func longestSilence(_ samples: [Int16], channels: Int, threshold: Int16 = 64) -> Int {
        let frames = samples.count / channels
        func loud(_ frame: Int) -> Bool { (0..<channels).contains { abs(Int(samples[frame * channels + $0])) > Int(threshold) } }
        guard let first = (0..<frames).first(where: loud), let last = (0..<frames).last(where: loud) else { return frames }
        var longest = 0
        var run = 0
        for frame in first...last {
            // A sine crosses zero every half period: count a run only past a few quiet frames in a row.
            if loud(frame) { run = 0 } else { run += 1; longest = max(longest, run) }
        }
        return longest
    }
}
