import Foundation

extension WavedialDatabase {
    /// The offline demo band's own database beside the configured one: `wavedial.sqlite` →
    /// `wavedial-demo.sqlite`, so the real catalog, favorites and history are never touched. The daemon in
    /// demo mode and `wavedial --demo` both use it.
    public static func demoPath(beside catalogDatabase: String) -> String {
        let url = URL(fileURLWithPath: catalogDatabase)
        let stem = url.deletingPathExtension().lastPathComponent
        let name = url.pathExtension.isEmpty ? "\(stem)-demo" : "\(stem)-demo.\(url.pathExtension)"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }
}
