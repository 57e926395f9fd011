import Foundation
import WavedialConfig
import WavedialControl

/// The CLI's way to the running daemon: its control socket, from the configuration.
struct DaemonConnection {
    let client: ControlClient

    init(_ global: GlobalOptions, timeoutSeconds: Int = 30) throws {
        var client = ControlClient(path: try global.loadConfiguration().daemon.controlSocket)
        client.timeoutSeconds = timeoutSeconds
        self.client = client
    }

    var isDaemonRunning: Bool { client.isDaemonRunning }

    /// The running daemon's connection, or nil when none runs (the CLI then writes the database itself).
    static func running(_ global: GlobalOptions) throws -> DaemonConnection? {
        let connection = try DaemonConnection(global)
        return connection.isDaemonRunning ? connection : nil
    }

    /// Sends `command`; a refusal or an unreachable daemon becomes one clear line and an exit code.
    @discardableResult
    func send(_ command: ControlCommand) throws -> ControlResponse {
        let response: ControlResponse
        do {
            response = try client.send(command)
        } catch let failure as ControlClient.Failure {
            throw CLIError(failure.description, exitCode: ExitStatus.unavailable)
        }
        guard response.ok else { throw CLIError(response.error ?? "the daemon refused", exitCode: ExitStatus.of(response.errorKind)) }
        return response
    }
}
