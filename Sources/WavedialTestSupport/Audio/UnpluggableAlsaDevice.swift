import Foundation

/// A playback device that can be pulled out and plugged in again, as a USB DAC can: alsa-lib's external
/// I/O plugin `Tests/Fixtures/alsa-fault/wdfault.c`, compiled with `cc` on first use and named in the
/// test asoundrc of ``AlsaCapture``.
///
/// While unplugged, `snd_pcm_open` fails with `-ENODEV` and an open PCM fails its next transfer, pointer
/// query and prepare with `-ENODEV`. Plugged in, it takes S16_LE frames as fast as they come and appends
/// them to ``captureFile``.
public struct UnpluggableAlsaDevice {
    /// The ALSA device name to configure.
    public let device: String
    /// Where the frames played go (raw interleaved S16_LE).
    public let captureFile: URL
    /// Present while the device is unplugged.
    public let faultFile: URL

    static var pluginPath: String { AlsaCapture.directory.appendingPathComponent("libasound_module_pcm_wdfault.so").path }

    private static let built: Result<Void, Error> = Result {
        _ = AlsaCapture.configured
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let source = ProjectPaths.fixtures.appendingPathComponent("alsa-fault/wdfault.c").path
        // -DPIC: alsa-lib's plugin macros only export the versioned entry point in PIC builds.
        compiler.arguments = ["cc", "-shared", "-fPIC", "-DPIC", "-O1", "-o", pluginPath, source, "-lasound"]
        try compiler.run()
        guard compiler.waitForExit() == .exited(0) else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "cc failed to build \(source)"])
        }
    }

    /// Builds the plugin (once per process) and makes a fresh device, plugged in.
    /// - Throws: when `cc` or the ALSA headers (libasound2-dev) are missing.
    public init(named name: String) throws {
        try Self.built.get()
        let stem = "wavedial-\(getpid())-\(name)-\(UUID().uuidString.prefix(8))"
        captureFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(stem).raw")
        faultFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(stem).unplugged")
        device = "wdfault:FILE=\"\(captureFile.path)\",FAULT=\"\(faultFile.path)\""
    }

    /// Pulls the device out.
    public func unplug() {
        _ = FileManager.default.createFile(atPath: faultFile.path, contents: nil)
    }

    /// Plugs it in again.
    public func plugIn() {
        try? FileManager.default.removeItem(at: faultFile)
    }

    /// The interleaved samples played so far.
    public var samples: [Int16] { AlsaCapture.samples(in: captureFile) }

    /// Removes the capture and fault files.
    public func remove() {
        plugIn()
        try? FileManager.default.removeItem(at: captureFile)
    }
}
