import FuzzDriver
import WavedialCore

/// The frequency a station's name or tags state, on hostile text and bands: the first two bytes pick a
/// band (FM, or one of the other plans a config may give), the rest is the name. A frequency found is a
/// channel of the band, and a text without two digits in a row states none.
@_cdecl("fuzz_stated_frequency_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzStatedFrequency(UnsafeRawPointer(data), count) }
}

private let bands: [Band] = [
    .fm,
    Band(startKHz: 76_000, endKHz: 95_000, stepKHz: 100)!,  // Japan
    Band(startKHz: 87_500, endKHz: 108_000, stepKHz: 200)!,  // the Americas
    Band(startKHz: 65_800, endKHz: 74_000, stepKHz: 30)!,  // OIRT
    Band(startKHz: 10, endKHz: 999_990, stepKHz: 10)!,
]

func fuzzStatedFrequency(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    guard bytes.count >= 2 else { return 0 }
    let band = bands[Int(bytes[0]) % bands.count]
    let split = Int(bytes[1]) % (bytes.count - 1)
    let name = String(decoding: bytes[2..<(2 + split)], as: UTF8.self)
    let tags = String(decoding: bytes[(2 + split)...], as: UTF8.self)
    for text in [name, tags] {
        guard let kHz = StatedFrequency.find(in: text, on: band) else { continue }
        precondition(band.isChannel(kHz), "\(kHz) kHz from \(text.debugDescription)")
        let digits = text.unicodeScalars.map { $0.properties.numericType == .decimal }
        precondition(zip(digits, digits.dropFirst()).contains { $0 && $1 }, text.debugDescription)
    }
    if let kHz = StatedFrequency.find(name: name, tags: tags, on: band) {
        precondition(kHz == StatedFrequency.find(in: name, on: band) ?? StatedFrequency.find(in: tags, on: band))
    }
    return 0
}
