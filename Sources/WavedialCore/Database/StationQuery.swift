/// A catalog search: free text over station names plus optional filters.
public struct StationQuery: Sendable, Equatable {
    /// Words that must all start a word of the name ("jazz caf" finds "Café Jazz").
    public var text: String
    public var tag: String?
    /// A country name ("Germany") or ISO 3166-1 code ("DE").
    public var country: String?
    public var language: String?
    public var limit: Int

    public init(text: String = "", tag: String? = nil, country: String? = nil, language: String? = nil, limit: Int = 20) {
        self.text = text
        self.tag = tag
        self.country = country
        self.language = language
        self.limit = limit
    }

    /// Whether there is anything to search for.
    public var isEmpty: Bool {
        [text, tag ?? "", country ?? "", language ?? ""].allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty }
    }
}

import Foundation
