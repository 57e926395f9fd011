import Audio
import Glibc

/// A codec library a build may link: the encodings it decodes and how it tells its version, for
/// `wavedial doctor`.
///
/// Looked up at run time through the dynamic linker (`dlsym` in the process's global scope), so the
/// table names libraries without linking them: one this build does not link has no `presence` symbol
/// and is left out; one that cannot tell its version (libogg; libmpg123 before 1.32, Debian 12's, has
/// no `mpg123_distversion`) is named without one. A decoder that links another library adds a row.
struct CodecLibrary: Sendable {
    /// The name people know it by: "libmpg123".
    var name: String
    /// The encodings it decodes (Ogg FLAC is FLAC in Ogg).
    var encodings: [AudioEncoding]
    /// A function only this library defines: its presence means the library is linked.
    var presence: String
    /// Its version as the library reports it, nil when it cannot.
    var version: @Sendable () -> String?

    static let all: [CodecLibrary] = [
        CodecLibrary(name: "libmpg123", encodings: [.mpeg], presence: "mpg123_new") {
            typealias DistVersion = @convention(c) (
                UnsafeMutablePointer<CUnsignedInt>?, UnsafeMutablePointer<CUnsignedInt>?, UnsafeMutablePointer<CUnsignedInt>?
            ) -> UnsafePointer<CChar>?
            guard let function = symbol("mpg123_distversion", as: DistVersion.self) else { return nil }
            var major: CUnsignedInt = 0, minor: CUnsignedInt = 0, patch: CUnsignedInt = 0
            return function(&major, &minor, &patch).map { String(cString: $0) }
        },
        CodecLibrary(name: "libfaad2", encodings: [.adts], presence: "NeAACDecOpen") {
            typealias GetVersion = @convention(c) (
                UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            ) -> CInt
            guard let function = symbol("NeAACDecGetVersion", as: GetVersion.self) else { return nil }
            var id: UnsafeMutablePointer<CChar>?, copyright: UnsafeMutablePointer<CChar>?
            guard function(&id, &copyright) == 0, let id else { return nil }
            return String(cString: id)
        },
        CodecLibrary(name: "libogg", encodings: [.ogg], presence: "ogg_sync_init") { nil },
        CodecLibrary(name: "libopus", encodings: [.ogg], presence: "opus_decoder_create") {
            stringFunction("opus_get_version_string")  // "libopus 1.3.1"
        },
        CodecLibrary(name: "libvorbis", encodings: [.ogg], presence: "vorbis_synthesis_init") {
            stringFunction("vorbis_version_string")  // "Xiph.Org libVorbis 1.3.7"
        },
        CodecLibrary(name: "libFLAC", encodings: [.flac, .ogg], presence: "FLAC__stream_decoder_new") {
            // A global `const char *`: dlsym gives the address of the pointer.
            dlsym(globalScope, "FLAC__VERSION_STRING")?.assumingMemoryBound(to: UnsafePointer<CChar>?.self).pointee
                .map { String(cString: $0) }
        },
    ]

    /// Whether this process links the library.
    var isLinked: Bool { dlsym(Self.globalScope, presence) != nil }

    /// "libopus 1.3.1", or the name alone when the library does not tell its version.
    var nameAndVersion: String {
        // Only the version number of what the library says ("Xiph.Org libVorbis 1.3.7"), bounded.
        guard let said = version(), let number = said.split(separator: " ").last, !number.isEmpty else { return name }
        return "\(name) \(number.prefix(32))"
    }

    /// The formats this build plays (an ``AudioEncoding`` it can make a decoder for), each with the
    /// libraries that decode it: "MP3 (libmpg123 1.32.10), Ogg (libogg, libopus 1.5.2, libvorbis 1.3.7)".
    static func playedFormats() -> [String] {
        let linked = all.filter(\.isLinked)
        return AudioEncoding.allCases.filter { (try? AudioDecoders.make(for: $0)) != nil }.map { encoding in
            let libraries = linked.filter { $0.encodings.contains(encoding) }.map(\.nameAndVersion)
            return libraries.isEmpty ? encoding.displayName : "\(encoding.displayName) (\(libraries.joined(separator: ", ")))"
        }
    }

    /// `RTLD_DEFAULT`: the executable and every library it loaded (a null handle; the macro is not imported).
    private static var globalScope: UnsafeMutableRawPointer? { nil }

    private static func symbol<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let address = dlsym(globalScope, name) else { return nil }
        return unsafeBitCast(address, to: type)
    }

    /// The string a `const char *f(void)` returns.
    private static func stringFunction(_ name: String) -> String? {
        typealias StringFunction = @convention(c) () -> UnsafePointer<CChar>?
        return symbol(name, as: StringFunction.self)?().map { String(cString: $0) }
    }
}
