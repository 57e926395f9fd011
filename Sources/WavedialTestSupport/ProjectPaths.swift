import Foundation

/// Where the project's files are, for tests that run its scripts, fixtures and binaries.
public enum ProjectPaths {
    /// The package root (the folder holding Package.swift).
    public static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    /// `Tests/Fixtures`.
    public static let fixtures = root.appendingPathComponent("Tests/Fixtures")

    /// The shared station records beside the checkout (`../shared/data`), read, never copied.
    public static let sharedData = root.deletingLastPathComponent().appendingPathComponent("shared/data")

    /// A product (`wavedial`, `wavediald`, ...) built beside the running test bundle: `swift build
    /// --build-tests` builds them all. The one way tests find a binary of this package.
    public static func product(_ name: String) -> URL {
        // On Linux the bundle URL is the build folder itself; elsewhere it is the .xctest inside it.
        let url = Bundle(for: ProductMarker.self).bundleURL
        let folder = url.pathExtension == "xctest" ? url.deletingLastPathComponent() : url
        return folder.appendingPathComponent(name)
    }
}

/// A class of the test bundle's own image, for `Bundle(for:)`.
private final class ProductMarker {}
