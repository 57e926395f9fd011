/// A segment's content a radio cannot play, in words for the failure ("HLS video only", "HLS audio AC-3").
public struct UnsupportedMedia: Error, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
