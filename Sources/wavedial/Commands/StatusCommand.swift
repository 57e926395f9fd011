import ArgumentParser
import Audio
import Foundation
import PrintableText
import WavedialControl
import WavedialCore

/// `wavedial status`: what the radio is doing.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "State, station, title, volume and favorite of the running radio.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false
    @Flag(help: "Keep printing each change until interrupted.") var follow = false

    func run() throws {
        let connection = try DaemonConnection(global)
        guard follow else {
            guard let status = try connection.send(.status).status else {
                throw CLIError("the daemon sent no status")
            }
            try show(status)
            return
        }
        do {
            try connection.client.follow { status in
                (try? show(status)) != nil
            }
        } catch let failure as ControlClient.Failure {
            throw CLIError(failure.description, exitCode: ExitStatus.unavailable)
        }
    }

    private func show(_ status: RadioStatus) throws {
        if json {
            try Output.json(status, pretty: !follow)
        } else {
            print(Self.describe(status))
        }
        fflush(nil)
    }

    /// One line for people; the station's name and title without control or bidi characters.
    static func describe(_ status: RadioStatus) -> String {
        var parts = [status.state.rawValue]
        if let station = status.station {
            parts.append(station.name + (station.frequencyMHz.map { String(format: " (%.1f MHz)", $0) } ?? ""))
        } else if status.state == .tuning {
            parts.append(String(format: "needle at %.1f MHz", status.needleMHz))
        }
        if let title = status.title { parts.append("“\(title)”") }
        if status.favorite { parts.append("♥ favorite") }
        parts.append(status.muted ? "muted" : "volume \(status.volume)")
        if status.band == .favorites { parts.append("favorites band") }
        if let sleep = status.sleepRemainingS.value { parts.append("sleep in \(SleepDuration.text(sleep))") }
        if status.alarmTone == true { parts.append("alarm beeping") }
        if let detail = status.connectingDetail { parts.append(detail) }
        if let error = status.error { parts.append("error: \(error.words)" + (status.errorDetail.map { " (\($0))" } ?? "")) }
        return StationText.printable(parts.joined(separator: " · "))
    }
}
