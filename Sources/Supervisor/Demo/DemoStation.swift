/// One station of the offline demo band (`wavediald --demo`): invented, made on the machine (a spoken
/// ident and a chord on the station's own tone), served from loopback by ``DemoStreamServer``.
///
/// Names are in several scripts, each stating its frequency ("Радио Волна 91.7"), so the dial places them
/// where they say and the LCD shows its transliteration. A value type; any thread.
public struct DemoStation: Sendable, Equatable {
    /// Its stationuuid, fixed so that favorites and dial positions survive restarts of the demo band.
    public let stationuuid: String
    /// The name, frequency included, as the dial and `wavedial status` show it.
    public let name: String
    /// The path segment it is served under (`/demo/<slug>`): ASCII, unique.
    public let slug: String
    /// espeak-ng's voice for the name in its own language.
    public let voice: String
    /// The frequency read out in the ident, in words an English voice reads well ("ninety-one point seven").
    public let spokenFrequency: String
    /// The fundamental of its music, in Hz: distinct per station, so a listener (or a test) tells them apart.
    public let toneHz: Int
    public let encoding: DemoEncoding
    /// Radio Browser's fields for the catalog record.
    public let language: String
    public let tags: String
    /// The programmes it announces in turn as ICY titles, one per ``DemoStation/programmeSeconds``.
    public let programmes: [String]

    /// Seconds each programme title lasts; the audio loops after one round of the four programmes.
    public static let programmeSeconds = 12
    /// The length of each station's audio loop, in seconds.
    public static let loopSeconds = 48

    /// The demo band: seven stations spread over the FM band, in seven scripts and three formats.
    public static let band: [DemoStation] = [
        DemoStation(
            stationuuid: "0de30000-0000-4000-8000-000000000001", name: "Radio Aurora 88.3", slug: "aurora", voice: "en",
            spokenFrequency: "eighty-eight point three", toneHz: 330, encoding: .mp3, language: "english", tags: "demo,ambient",
            programmes: ["Morning Light", "Tones at Dawn", "The Long Chord", "Aurora Drive"]),
        DemoStation(
            stationuuid: "0de30000-0000-4000-8000-000000000002", name: "Радио Волна 91.7", slug: "volna", voice: "ru",
            spokenFrequency: "ninety-one point seven", toneHz: 392, encoding: .aac, language: "russian", tags: "demo,jazz",
            programmes: ["Утренний эфир", "Волна джаза", "Ночной город", "Песни моря"]),
        DemoStation(
            stationuuid: "0de30000-0000-4000-8000-000000000003", name: "Ράδιο Αιγαίο 94.9", slug: "aigaio", voice: "el",
            spokenFrequency: "ninety-four point nine", toneHz: 440, encoding: .opus, language: "greek", tags: "demo,folk",
            programmes: ["Πρωινή εκπομπή", "Ήχοι του Αιγαίου", "Νυχτερινό ταξίδι", "Μελωδίες"]),
        DemoStation(
            stationuuid: "0de30000-0000-4000-8000-000000000004", name: "إذاعة النخيل 97.3", slug: "nakheel", voice: "ar",
            spokenFrequency: "ninety-seven point three", toneHz: 494, encoding: .mp3, language: "arabic", tags: "demo,oud",
            programmes: ["صباح الخير", "أنغام الصحراء", "ليالي النخيل", "موسيقى هادئة"]),
        DemoStation(
            stationuuid: "0de30000-0000-4000-8000-000000000005", name: "月光电台 100.6", slug: "yueguang", voice: "cmn",
            spokenFrequency: "one hundred point six", toneHz: 554, encoding: .aac, language: "chinese", tags: "demo,pop",
            programmes: ["早安音乐", "月光小夜曲", "城市之声", "深夜电波"]),
        DemoStation(
            stationuuid: "0de30000-0000-4000-8000-000000000006", name: "रेडियो सरगम 103.2", slug: "sargam", voice: "hi",
            spokenFrequency: "one hundred and three point two", toneHz: 622, encoding: .opus, language: "hindi",
            tags: "demo,classical", programmes: ["सुबह की धुन", "राग यमन", "शाम के गीत", "रात की बातें"]),
        DemoStation(
            stationuuid: "0de30000-0000-4000-8000-000000000007", name: "Onda Libre 106.5", slug: "onda-libre", voice: "es",
            spokenFrequency: "one hundred and six point five", toneHz: 698, encoding: .mp3, language: "spanish", tags: "demo,latin",
            programmes: ["Buenos Días", "Ritmo del Mar", "La Hora del Tono", "Noche Libre"]),
    ]

    /// The station served under `slug`, if any.
    public static func station(slug: String) -> DemoStation? {
        band.first { $0.slug == slug }
    }

    /// The programme on air `seconds` into the station's loop.
    public func programme(atLoopSecond seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return programmes[0] }
        let index = Int(seconds.truncatingRemainder(dividingBy: Double(Self.loopSeconds))) / Self.programmeSeconds
        return programmes[min(index, programmes.count - 1)]
    }
}
