import Foundation

/// The JSON body of a `POST /api/…`: `{"value":40}`, `{"value":"94.1"}`, `{"id":3}`,
/// `{"time":"07:00","days":"mon-fri","stationuuid":"…"}`, `{"password":"…"}`. Every field is optional;
/// numbers and strings are both taken where a value is a number (`"40"` or `40`). Hostile input: texts
/// are bounded by the body's limit and checked by the controller as the control socket's are.
struct WebAction: Decodable {
    var value: String?
    var id: String?
    var password: String?
    var time: String?
    var days: String?
    var stationuuid: String?

    enum CodingKeys: String, CodingKey {
        case value, id, password, time, days, stationuuid
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try Self.text(container, .value)
        id = try Self.text(container, .id)
        password = try container.decodeIfPresent(String.self, forKey: .password)
        time = try container.decodeIfPresent(String.self, forKey: .time)
        days = try container.decodeIfPresent(String.self, forKey: .days)
        stationuuid = try container.decodeIfPresent(String.self, forKey: .stationuuid)
    }

    /// An empty body is an action with no fields. - Throws: when the body is not a JSON object of these fields.
    static func decode(_ body: [UInt8]) throws -> WebAction {
        let data = body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) ? Data("{}".utf8) : Data(body)
        return try JSONDecoder().decode(WebAction.self, from: data)
    }

    /// A string, or a number written as the text the control socket takes (whole numbers without a fraction).
    private static func text(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> String? {
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
        if let string = try? container.decode(String.self, forKey: key) { return string }
        if let whole = try? container.decode(Int64.self, forKey: key) { return String(whole) }
        let number = try container.decode(Double.self, forKey: key)
        guard number.isFinite else { throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a finite number") }
        return String(number)
    }
}
