import ArgumentParser
import Foundation

/// The URL argument of `check-url` and `play-url`: only http and https streams are played.
enum StreamURLArgument {
    static func validate(_ url: String) throws {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme),
              parsed.host?.isEmpty == false else {
            throw ValidationError("not an http or https URL: \(url)")
        }
    }
}
