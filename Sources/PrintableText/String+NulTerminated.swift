extension String {
    /// The text a C function wrote into `buffer`, up to its first NUL (all of it without one); bytes that are
    /// not UTF-8 are repaired, as `String(cString:)` does. (`String(cString:)` of an array is deprecated: it
    /// reads past the end of one without a NUL.)
    public init(nulTerminated buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
