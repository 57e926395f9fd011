import WavedialTestSupport
import XCTest
@testable import Audio

/// The loudness stage on generated programme, measured by libebur128 (``EBUR128Meter``) before and after.
final class LoudnessNormalizerTests: XCTestCase {
    private let format = PCMFormat(sampleRate: 44100, channels: 2)
    private let station = PlayableStation(id: "s", name: "S", url: "http://example.org/s")

    /// Stereo programme: a chord under noise, swelling every 2 s, scaled to `loudness` LUFS by the meter itself.
    private func programme(loudness: Double, seconds: Int, format: PCMFormat? = nil) -> [Int16] {
        let format = format ?? self.format
        var random = SeededRandom(seed: 7)
        var raw: [Double] = []
        for frame in 0..<(seconds * format.sampleRate) {
            let time = Double(frame) / Double(format.sampleRate)
            let swell = 0.55 + 0.45 * sin(Double.pi * time)
            let value = swell * (0.3 * sin(2 * Double.pi * 220 * time) + 0.2 * sin(2 * Double.pi * 330 * time)
                + 0.1 * Double.random(in: -1...1, using: &random))
            for _ in 0..<format.channels { raw.append(value) }
        }
        let unscaled = raw.map { Int16(clamping: Int(($0 * 8000).rounded())) }
        let measured = self.loudness(of: unscaled, format: format)
        let scale = 8000 * pow(10, (loudness - measured) / 20)
        return raw.map { Int16(clamping: Int(($0 * scale).rounded())) }
    }

    private func loudness(of samples: [Int16], format: PCMFormat? = nil) -> Double {
        let meter = EBUR128Meter(format: format ?? self.format)
        samples.withUnsafeBufferPointer { meter?.add($0) }
        return meter?.integrated ?? .nan
    }

    /// Runs samples through the stage in decoder-sized chunks; returns the output and the reports.
    private func normalize(_ samples: [Int16], _ normalizer: LoudnessNormalizer, format: PCMFormat? = nil) -> ([Int16], [LoudnessReport]) {
        let format = format ?? self.format
        var output = samples
        var reports: [LoudnessReport] = []
        let chunk = 1152 * format.channels
        output.withUnsafeMutableBufferPointer { buffer in
            for start in stride(from: 0, to: buffer.count, by: chunk) {
                let slice = UnsafeMutableBufferPointer(rebasing: buffer[start..<min(start + chunk, buffer.count)])
                if let report = normalizer.process(slice, format: format) { reports.append(report) }
            }
        }
        return (output, reports)
    }

    func testTheMeterReadsASineAsBS1770Does() {
        let stereo = PCMFormat(sampleRate: 48000, channels: 2)
        // A 997 Hz sine of peak -20 dBFS on both channels is -20 LUFS; mono is dual mono, so the same.
        let sine = (0..<(48000 * 5)).map { Int16((3277 * sin(2 * Double.pi * 997 * Double($0) / 48000)).rounded()) }
        XCTAssertEqual(loudness(of: sine.flatMap { [$0, $0] }, format: stereo), -20, accuracy: 0.1)
        XCTAssertEqual(loudness(of: sine, format: PCMFormat(sampleRate: 48000, channels: 1)), -20, accuracy: 0.1)
        XCTAssertEqual(loudness(of: [Int16](repeating: 0, count: 96000), format: stereo), -.infinity)
        XCTAssertNil(EBUR128Meter(format: PCMFormat(sampleRate: 0, channels: 2)))
        XCTAssertNil(EBUR128Meter(format: PCMFormat(sampleRate: 44100, channels: 0)))
    }

    func testStationsFromMinus35ToMinus10LUFSComeOutAtTheTarget() {
        for input in [-35.0, -23, -16, -10] {
            let normalizer = LoudnessNormalizer(target: -23)
            _ = normalizer.start(station: station, storedLoudness: nil)
            let (output, _) = normalize(programme(loudness: input, seconds: 15), normalizer)
            XCTAssertEqual(loudness(of: output), -23, accuracy: 1, "from \(input) LUFS")
            // The last 6 s (three swells), settled: closer still.
            XCTAssertEqual(loudness(of: Array(output.suffix(44100 * 2 * 6))), -23, accuracy: 0.5, "from \(input) LUFS")
        }
    }

    func testAStationStartsAtItsStoredLoudnessAtOnce() {
        let normalizer = LoudnessNormalizer(target: -23)
        _ = normalizer.start(station: station, storedLoudness: -33)
        let (output, _) = normalize(programme(loudness: -33, seconds: 2), normalizer)
        XCTAssertEqual(loudness(of: output), -23, accuracy: 0.5)
    }

    func testReportsComeAfterTenSecondsAndOnceMoreWhenTheStationEnds() {
        let normalizer = LoudnessNormalizer(target: -23)
        _ = normalizer.start(station: station, storedLoudness: nil)
        let (_, early) = normalize(programme(loudness: -18, seconds: 9), normalizer)
        XCTAssertEqual(early, [])
        let (_, reports) = normalize(programme(loudness: -18, seconds: 12), normalizer)
        XCTAssertEqual(reports.count, 3, "at 10, 15 and 20 s: \(reports)")
        for report in reports {
            XCTAssertEqual(report.station, station)
            XCTAssertEqual(report.integratedLUFS, -18, accuracy: 0.3)
            XCTAssertFalse(report.isLast)
        }
        let last = normalizer.start(station: nil, storedLoudness: nil)
        XCTAssertEqual(last?.isLast, true)
        XCTAssertEqual(last?.integratedLUFS ?? 0, -18, accuracy: 0.3)
        XCTAssertGreaterThanOrEqual(last?.measuredSeconds ?? 0, 20)
        XCTAssertNil(normalizer.start(station: station, storedLoudness: nil), "nothing measured since")
    }

    func testSilenceIsNeitherRaisedNorMeasuredNorNaN() {
        let normalizer = LoudnessNormalizer(target: -23)
        _ = normalizer.start(station: station, storedLoudness: nil)
        let (output, reports) = normalize([Int16](repeating: 0, count: 44100 * 2 * 15), normalizer)
        XCTAssertEqual(output, [Int16](repeating: 0, count: 44100 * 2 * 15))
        XCTAssertEqual(reports, [])
        // Still at the guess when the programme starts (its first 90 ms, before a block holds it): -16 LUFS
        // assumed, so -7 dB for -23.
        let programme = programme(loudness: -16, seconds: 1)
        let (after, _) = normalize(programme, normalizer)
        let latency = TruePeakLimiter(channels: 2, sampleRate: 44100).latencyFrames * 2
        let energy = { (samples: ArraySlice<Int16>) in samples.reduce(0) { $0 + Double($1) * Double($1) } }
        let span = 44100 * 2 * 9 / 100
        let gain = 10 * log10(energy(after[latency..<(latency + span)]) / energy(programme[0..<span]))
        XCTAssertEqual(gain, -7, accuracy: 0.1, "the gain after 15 s of silence")
        XCTAssertNil(normalizer.start(station: nil, storedLoudness: nil))
    }

    func testPastTheSettlingTheMeterHearsAQuarterOfTheProgrammeAndWeighsItAll() {
        // 30 s at -18 LUFS, then 90 s at -24: everything measured, that is -21.6 LUFS. A meter that heard the
        // first 30 s in full and a quarter of the rest would read -19.7.
        let mono = PCMFormat(sampleRate: 22050, channels: 1)
        let normalizer = LoudnessNormalizer(target: -23)
        _ = normalizer.start(station: station, storedLoudness: nil)
        let first = programme(loudness: -18, seconds: 30, format: mono)
        let rest = programme(loudness: -24, seconds: 90, format: mono)
        let (_, early) = normalize(first, normalizer, format: mono)
        XCTAssertEqual(early.last?.integratedLUFS ?? 0, -18, accuracy: 0.3, "the settling meter hears all of it")
        _ = normalize(rest, normalizer, format: mono)
        let whole = loudness(of: first + rest, format: mono)
        XCTAssertEqual(whole, -21.6, accuracy: 0.4, "the two programmes' energies, averaged")
        // The settling meter's 30 s, and the sampled one's 2 s in every 8 from the start: 30 + 30 of the 120 s.
        XCTAssertEqual(normalizer.meteredSeconds, 60, accuracy: 1.5)
        let last = normalizer.start(station: nil, storedLoudness: nil)
        XCTAssertEqual(last?.integratedLUFS ?? 0, whole, accuracy: 0.3, "a sample of the whole programme")
        XCTAssertEqual(last?.measuredSeconds ?? 0, 120, accuracy: 0.1, "every second counts as measured")
    }

    func testARateChangeMidStationKeepsTheMeasurement() {
        let normalizer = LoudnessNormalizer(target: -23)
        _ = normalizer.start(station: station, storedLoudness: nil)
        _ = normalize(programme(loudness: -14, seconds: 8), normalizer)
        let other = PCMFormat(sampleRate: 22050, channels: 1)
        let (output, reports) = normalize(programme(loudness: -14, seconds: 8, format: other), normalizer, format: other)
        XCTAssertEqual(reports.first?.integratedLUFS ?? 0, -14, accuracy: 0.5, "measured over both parts: \(reports)")
        XCTAssertEqual(loudness(of: output, format: other), -23, accuracy: 1, "the gain carries on")
    }
}
