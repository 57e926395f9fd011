import ArgumentParser
import Audio
import Display
import Foundation
import Hardware
import RadioBrowser
import WavedialConfig
import WavedialControl
import WavedialCore

/// `wavedial doctor`: checks everything the radio depends on, a line each: ok or the
/// problem and what to do about it.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check config, database, audio device, formats, LCD, GPIO, network, Radio Browser and disk space.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    struct Finding: Encodable {
        var check: String
        var ok: Bool
        var detail: String
        /// What to do about a problem.
        var advice: String?
    }

    func run() throws {
        var findings: [Finding] = []
        let configuration: Configuration
        do {
            configuration = try global.loadConfiguration()
            findings.append(Finding(check: "config", ok: true, detail: global.configPath))
        } catch {
            findings.append(Finding(check: "config", ok: false, detail: "\(error)", advice: "fix the key named, then 'wavedial config check'"))
            return try report(findings)
        }
        let daemonRunning = ControlClient(path: configuration.daemon.controlSocket).isDaemonRunning
        findings.append(Finding(check: "daemon", ok: true,
                                detail: daemonRunning ? "running (\(configuration.daemon.controlSocket))" : "not running"))
        findings.append(database(configuration))
        findings.append(disk(configuration))
        findings.append(audio(configuration, daemonRunning: daemonRunning))
        if let mixer = mixer(configuration) { findings.append(mixer) }
        findings.append(formats())
        findings.append(lcd(configuration, daemonRunning: daemonRunning))
        findings.append(gpio(configuration, daemonRunning: daemonRunning))
        findings.append(radioBrowser(configuration))
        try report(findings)
    }

    private func report(_ findings: [Finding]) throws {
        if json {
            try Output.json(findings)
        } else {
            for finding in findings {
                Output.line("\(finding.ok ? "ok     " : "PROBLEM") \(finding.check): \(finding.detail)"
                      + (finding.advice.map { " — \($0)" } ?? ""))
            }
        }
        if findings.contains(where: { !$0.ok }) { throw ExitCode(1) }
    }

    private func database(_ configuration: Configuration) -> Finding {
        let path = configuration.catalog.database
        do {
            let database = try WavedialDatabase.open(path: path)
            let problems = try database.integrityProblems()
            guard problems.isEmpty else {
                return Finding(check: "database", ok: false, detail: "\(path): \(problems.prefix(3).joined(separator: "; "))",
                               advice: "export favorites ('wavedial fav export'), move the file away and sync again")
            }
            let count = try database.stationCount()
            let last = try database.lastSync()
            guard count > 0 else {
                return Finding(check: "database", ok: false, detail: "\(path): the catalog is empty", advice: "run 'wavedial sync'")
            }
            let age = last.map { " , synced \(Int(-$0.finishedAt.timeIntervalSinceNow / 3600)) h ago" } ?? ""
            return Finding(check: "database", ok: true,
                           detail: "\(path): \(count) stations, \(try database.favorites().count) favorites\(age.replacingOccurrences(of: " ,", with: ","))")
        } catch {
            return Finding(check: "database", ok: false, detail: "\(path): \(error)",
                           advice: "check the path in [catalog] database and that its folder is writable")
        }
    }

    private func disk(_ configuration: Configuration) -> Finding {
        let folder = URL(fileURLWithPath: configuration.catalog.database).deletingLastPathComponent().path
        var stats = statvfs()
        guard statvfs(folder, &stats) == 0 else {
            return Finding(check: "disk", ok: false, detail: "\(folder): \(String(cString: strerror(errno)))", advice: "create the folder")
        }
        let free = Double(stats.f_bavail) * Double(stats.f_frsize) / 1_048_576
        let ok = free >= 100
        return Finding(check: "disk", ok: ok, detail: String(format: "%.0f MiB free in %@", free, folder),
                       advice: ok ? nil : "free some space: the catalog needs about 60 MiB during a sync")
    }

    private func audio(_ configuration: Configuration, daemonRunning: Bool) -> Finding {
        let output = AlsaOutput(settings: configuration.audio.output)
        do {
            try output.open(format: PCMFormat(sampleRate: 44_100, channels: 2))
            output.close()
            return Finding(check: "audio", ok: true, detail: "ALSA device '\(configuration.audio.output.device)' opens")
        } catch {
            let busy = "\(error)".contains("busy")
            return Finding(check: "audio", ok: busy && daemonRunning,
                           detail: "ALSA device '\(configuration.audio.output.device)': \(error)",
                           advice: busy && daemonRunning ? nil : "check [audio] device against 'aplay -L' and that the user is in group audio")
        }
    }

    /// The card's volume control with `[audio] mixer = "hardware"`: it opens and has a dB scale, or the
    /// card's volume controls, named.
    private func mixer(_ configuration: Configuration) -> Finding? {
        do {
            guard let mixer = try configuration.audio.mixer.open() else { return nil }
            defer { mixer.close() }
            return Finding(check: "mixer", ok: true, detail: "control '\(mixer.control)' on '\(mixer.device)': "
                           + String(format: "%.1f to %.1f dB", mixer.range.lowerBound, mixer.range.upperBound))
        } catch {
            return Finding(check: "mixer", ok: false, detail: "\(error)",
                           advice: "set [audio] mixer_control to one of the card's volume controls ('amixer scontrols'), or mixer = \"software\"")
        }
    }

    /// The formats this build plays and the version of each codec library (``CodecLibrary``).
    private func formats() -> Finding {
        let formats = CodecLibrary.playedFormats()
        guard !formats.isEmpty else {
            return Finding(check: "formats", ok: false, detail: "no decoder can be made", advice: "reinstall wavedial and libmpg123")
        }
        return Finding(check: "formats", ok: true, detail: formats.joined(separator: ", "))
    }

    private func lcd(_ configuration: Configuration, daemonRunning: Bool) -> Finding {
        let display = configuration.display
        switch display.driver {
        case .none:
            return Finding(check: "lcd", ok: true, detail: "no LCD configured")
        case .gpio:
            return Finding(check: "lcd", ok: true, detail: "wired to GPIO lines on \(display.gpioChip); 'wavedial lcd test' shows a pattern")
        case .pcf8574:
            do {
                let device = try I2CDevice(path: display.bus, address: display.address)
                // One byte with only the backlight bit changes nothing on the display: a presence probe.
                let mapping = display.mapping
                try device.write([mapping.backlightActiveHigh ? UInt8(1) << mapping.backlight : 0])
                device.close()
                return Finding(check: "lcd", ok: true, detail: String(format: "PCF8574 answers at 0x%02x on %@", display.address, display.bus))
            } catch {
                return Finding(check: "lcd", ok: false, detail: String(format: "0x%02x on %@: ", display.address, display.bus) + "\(error)",
                               advice: "enable I2C (dtparam=i2c_arm=on), check the wiring and the address with 'i2cdetect -y 1'")
            }
        }
    }

    private func gpio(_ configuration: Configuration, daemonRunning: Bool) -> Finding {
        let settings = configuration.hardware
        guard settings.backend == .gpiod else { return Finding(check: "gpio", ok: true, detail: "backend \(settings.backend.rawValue)") }
        do {
            let backend = try GpiodBackend(orderingWindowNanoseconds: settings.edgeOrderingNanoseconds)
            let lines = InputDecoder.lines(for: settings)
            _ = try backend.request(chip: settings.chip, lines: lines)
            backend.release()
            return Finding(check: "gpio", ok: true, detail: "\(lines.count) lines on \(settings.chip) can be requested (libgpiod \(GpiodBackend.libgpiodVersion))")
        } catch let error as GPIOError where error.code == .lineBusy && daemonRunning {
            return Finding(check: "gpio", ok: true, detail: "lines on \(settings.chip) held by the running daemon (libgpiod \(GpiodBackend.libgpiodVersion))")
        } catch {
            return Finding(check: "gpio", ok: false, detail: "\(settings.chip): \(error)",
                           advice: "check [hardware] chip and pins ('gpioinfo'), and that the user is in group gpio")
        }
    }

    private func radioBrowser(_ configuration: Configuration) -> Finding {
        let servers = configuration.catalog.servers.isEmpty ? ServerDiscovery.discover() : configuration.catalog.servers
        guard let server = servers.first else {
            return Finding(check: "network", ok: false, detail: "no Radio Browser server found by DNS",
                           advice: "check the network and DNS, or set [catalog] servers")
        }
        var client = RadioBrowserClient()
        client.connectTimeout = 5
        client.stallTimeout = 5
        if configuration.catalog.servers.isEmpty { client.addressPolicy = ServerDiscovery.addressPolicy }
        do {
            try client.get((server.hasSuffix("/") ? String(server.dropLast()) : server) + "/json/stats") { _ in }
            return Finding(check: "network", ok: true, detail: "Radio Browser answers at \(server)")
        } catch {
            return Finding(check: "network", ok: false, detail: "\(error)", advice: "check the network; the radio keeps its last catalog meanwhile")
        }
    }
}
