/// The fields of one ICY metadata block, e.g. `StreamTitle='Artist - Title';StreamUrl='';`.
public struct ICYMetadata: Equatable, Sendable {
    /// Every `Key='value'` pair, decoded, in the order sent.
    public var fields: [(key: String, value: String)]

    public init(fields: [(key: String, value: String)]) {
        self.fields = fields
    }

    /// `StreamTitle`, or nil when absent or empty (an empty title means "no title").
    public var title: String? {
        guard let value = fields.first(where: { $0.key == "StreamTitle" })?.value, !value.isEmpty else { return nil }
        return value
    }

    /// `StreamUrl`, or nil when absent or empty.
    public var url: String? {
        guard let value = fields.first(where: { $0.key == "StreamUrl" })?.value, !value.isEmpty else { return nil }
        return value
    }

    public static func == (lhs: ICYMetadata, rhs: ICYMetadata) -> Bool {
        lhs.fields.map(\.key) == rhs.fields.map(\.key) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
    }
}
