import Foundation
import Logging
import WavedialControl
import WavedialCore

/// The CLI's changes to the favorites and the location while the daemon runs (`wavedial fav add|remove|move`,
/// `wavedial location set`): the daemon writes them, on the control client's thread (never on the controller's
/// queue, as the alarms), then its bands follow (`data_changed`). The reply comes once the write is durable.
struct DataChangeWriter {
    let database: WavedialDatabase
    let controller: RadioController
    let logger: Logger

    /// The reply to `command`; nil when it is no such change.
    func respond(to command: ControlCommand) -> ControlResponse? {
        let change: ControlCommand.DataChange
        var response = ControlResponse(ok: true)
        do {
            switch command {
            case .favoriteAdd(let uuid):
                guard let station = try database.station(uuid: uuid) else { return .failure("no station \(uuid) in the catalog") }
                response.added = try database.addFavorite(station)
                change = .favorites
            case .favoriteRemove(let uuid):
                guard try database.removeFavorite(uuid) else { return .failure("\(uuid) is not a favorite") }
                change = .favorites
            case .favoriteMove(let uuid, let position):
                guard let placed = try database.moveFavorite(uuid, to: position) else { return .failure("\(uuid) is not a favorite") }
                response.position = placed
                change = .favorites
            case .favoritesImport(let text):
                let entries: [FavoritesFile.Entry]
                do {
                    entries = try FavoritesFile.parse(Data(text.utf8))
                } catch {
                    return .failure("\(error); nothing was imported")
                }
                response.imported = try database.importFavorites(entries)
                change = .favorites
            case .locationSet(let coordinate):
                try database.setLocation(coordinate)
                change = .location
            default:
                return nil
            }
        } catch {
            return .failure("not saved: \(error)", cause: error)
        }
        logger.info("written for the CLI", metadata: ["command": "\(command.name)"])
        response.status = controller.perform(.dataChanged(change)).status
        return response
    }
}
