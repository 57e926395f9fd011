import ApplianceSetup
import Audio
import CMalloc
import CurlSupport
import Display
import Foundation
import Hardware
import Logging
import RadioBrowser
import Threads
import WavedialConfig
import WavedialControl
import WavedialCore

/// `wavediald`: opens the database, builds the subsystems and hands them, as ``ApplianceService``s in
/// dependency order (display, player, controller, input, servers, catalog), to a ``ServiceGroup``; talks to
/// systemd, and on SIGTERM/SIGINT stops them in reverse under one deadline (fade out, close devices, flush)
/// and exits 0. SIGHUP reloads the configuration.
public final class Daemon: Sendable {
    /// How the appliance meets the world.
    public enum Mode: Sendable, Equatable {
        /// Real GPIO and LCD as configured.
        case appliance
        /// Simulated knob and buttons, no LCD; `interactive` draws the LCD in the terminal
        /// and reads keys, else it is driven by `wavedial sim …` only (`--headless`).
        case simulator(interactive: Bool)
    }

    private let configPath: String
    /// The configuration the daemon started with: what builds the services. A reload (SIGHUP, `reload`) hands
    /// the fresh one to the controller and keeps none here, so start-up never reads a value another thread writes.
    private let configuration: Configuration
    private let mode: Mode
    private let demo: Bool
    private let logger: Logger
    private let notifier = SystemdNotifier()
    /// Every password presented, to the web page or the MPD server, judged in one place per client address.
    private let passwordAttempts = PasswordAttempts(logger: Logger(label: "wavedial.auth"))

    /// - Parameter demo: play the offline ``DemoBand`` (its own database beside the configured one, its
    ///   stations made and served on this machine) instead of the catalog; no sync, no click reports.
    public init(configPath: String, configuration: Configuration, mode: Mode, demo: Bool = false, logger: Logger) {
        self.configPath = configPath
        self.configuration = configuration
        self.mode = mode
        self.demo = demo
        self.logger = logger
    }

    /// Runs until SIGTERM or SIGINT (or `q` in the simulator). - Returns: the exit status.
    public func run() -> Int32 {
        // Two malloc arenas, not glibc's eight a core: every control, MPD and web client has a thread of
        // its own, and each thread that allocates would keep an arena's pages resident after it left
        // (1 MiB after 16 clients, bench/daemon/servers.sh); the radio's few busy threads do not contend.
        _ = CMalloc_limitArenas(2)
        // Signals are caught from the start, so a stop during start-up is a clean stop too.
        let stop = DispatchSemaphore(value: 0)
        let stopRequested = OnceFlag()
        var controllerForReload: RadioController?
        let signals = watchSignals(stop: stop, stopRequested: stopRequested) { [self] in
            guard let controller = controllerForReload else { return }
            notifier.notify("RELOADING=1")
            _ = reload(controller)
            notifier.notify("READY=1")
        }
        // Before any thread starts a process: the sockets systemd passed are this process's alone.
        let listeners = SystemdListeners.takeFromEnvironment()
        // Before any thread that may transfer: libcurl's global set-up is not for concurrent first use.
        CurlEasy.initializeLibrary()
        // alsa-lib's own messages into the log, not onto stderr (the simulator's screen).
        AlsaLibraryLog.route(to: Logger(label: "wavedial.audio"))
        let mixer: AlsaMixer?
        do {
            mixer = try configuration.audio.mixer.open()
        } catch {
            logger.critical("[audio] mixer_control: \(error)")
            notifier.notify("STATUS=[audio] mixer_control: \(error)")
            return 1
        }
        let databasePath = Self.databasePath(configuration, demo: demo)
        guard let database = openDatabase(at: databasePath) else { return Self.databaseFailureStatus }

        var audio = configuration.audio
        // The appliance's sound card is part of it; the simulator is tried on any machine, often one without a card.
        if mode == .simulator(interactive: true) { audio.missingDevice = .playSilently }
        let player = Player(settings: audio, logger: Logger(label: "wavedial.audio"), mixer: mixer)
        let demoBand = demo
            ? DemoBandService(databasePath: databasePath, database: database, location: configuration.location.coordinate,
                              stopRequested: stopRequested, logger: Logger(label: "wavedial.demo"))
            : nil
        var controllerReference: RadioController?
        let display = DisplayService(
            settings: configuration.display, useLCD: mode == .appliance,
            initialState: DisplayViewState(phase: .idle, clock: Date()), logger: Logger(label: "wavedial.display")
        ) { problem in controllerReference?.setNotice(problem, from: "display") }
        let clicks = ClickReporter(servers: configuration.catalog.servers, logger: logger)
        // Radio Browser counts plays of its own stations only: the demo band's are never reported.
        let reportPlay: (Station) -> Void = demo ? { _ in } : { clicks.report($0) }
        let controller = RadioController(
            configuration: configuration, database: database, player: player,
            display: { display.update($0) }, reportPlay: reportPlay,
            isServedHere: { demoBand?.band.isLocalDemo($0) ?? false }, logger: Logger(label: "wavedial.controller"))
        controllerReference = controller
        controllerForReload = controller
        let catalog = CatalogService(
            database: database, settings: configuration.catalog, logger: Logger(label: "wavedial.catalog"),
            onNotice: { controller.setNotice($0, from: "catalog") }, onSynced: { controller.reload() })
        let simulatedInput = mode == .appliance ? nil : SimulatedInput(
            settings: configuration.hardware, logger: Logger(label: "wavedial.hardware"), onEvent: { controller.handle($0) })
        let edits = DataChangeWriter(database: database, controller: controller, logger: Logger(label: "wavedial.control"))
        let answer: @Sendable (ControlCommand) -> ControlResponse = { [self, simulated = simulatedInput?.backend] command in
            edits.respond(to: command)
                ?? respond(to: command, controller: controller, display: display, catalog: catalog, simulatedInput: simulated)
        }

        let setupJoining = SetupJoining()
        let location = configuration.location.coordinate
        let setup = WebSetup(
            root: configuration.daemon.setupRoot, inboxFile: configuration.daemon.setupInboxFile,
            wifiScanFile: configuration.daemon.wifiScanFile, hotspotFile: configuration.daemon.hotspotFile,
            zoneInfo: ZoneInfoDirectory(), joining: setupJoining,
            location: { ((try? database.storedLocation()) ?? nil) ?? location })

        // In the order they start (each may rely on those before it); they stop in reverse.
        let services: [ApplianceService?] = [
            display,
            // The demo band's database holds the demo band only, made before the controller reads it.
            demoBand,
            // Stopped after the player: its stations' last measurements come as it stops.
            LoudnessRecorder(database: database, player: player, logger: logger),
            player,
            clicks,
            controller,
            input(controller), simulatedInput, remote(controller),
            // Before the control socket: a client that sees the daemon answer finds the page served too.
            WebServer(configuration.web, inherited: listeners.descriptors["web"].map(StreamSocket.adopting(listeningDescriptor:)),
                      backend: WebBackend(perform: answer, dialListing: { controller.dialListing() }, search: { try database.search($0) }),
                      setup: setup, attempts: passwordAttempts, logger: Logger(label: "wavedial.web")),
            // The display's walk-through while the setup access point is up; the simulator has none.
            mode == .appliance
                ? HotspotGuide(hotspotFile: configuration.daemon.hotspotFile, joining: setupJoining, logger: logger) { text, nanoseconds in
                    controller.showBanner(text, forNanoseconds: nanoseconds)
                }
                : nil,
            ControlServer(path: configuration.daemon.controlSocket, logger: Logger(label: "wavedial.control"),
                          respond: answer, subscribe: controller.subscribe),
            mpd(controller, listeners: listeners),
            // Stopped first: a sync is cancelled before the control clients waiting on it are joined.
            demo ? nil : catalog,
            // Last: what it wakes has started.
            NetworkChangeMonitor(logger: logger) { [weak player, scheduledSync = demo ? nil : catalog] in
                player?.networkChanged()
                scheduledSync?.networkChanged()
            },
            mode == .simulator(interactive: true)
                ? TerminalSimulator(
                    controller: controller, display: display,
                    banner: demo ? "Offline demo band: made-up stations, made and played on this machine" : nil,
                    onQuit: { stop.signal() })
                : nil,
        ]
        let group = ServiceGroup(logger: logger)
        do {
            for case let service? in services { try group.start(service) }
        } catch {
            group.stop()
            // A stop during start-up (the demo band's media being made) is a clean stop.
            if stopRequested.isSet { return 0 }
            logger.critical("cannot start", metadata: ["error": "\(error)"])
            notifier.notify("STATUS=cannot start: \(error)")
            return WavedialDatabase.isDatabaseFailure(error) ? Self.databaseFailureStatus : 1
        }
        if let problem = SetupProblemBanner.read(at: configuration.daemon.setupProblemFile) {
            logger.warning("the card's settings file was not applied", metadata: ["setup.problem": "\(problem)"])
            controller.showBanner(problem, forNanoseconds: SetupProblemBanner.nanoseconds)
        }
        notifier.notify("READY=1\nSTATUS=playing radio; control socket \(configuration.daemon.controlSocket)")
        let released = MappedImages.releaseStartUpPages()
        logger.debug("start-up pages released", metadata: ["regions": "\(released.count)"])
        try? group.start(SettledPageRelease(following: controller, logger: logger))
        try? group.start(SystemdWatchdog(notifier: notifier, controllerQueue: controller.queue))
        logger.info("wavediald ready", metadata: ["control.socket": "\(configuration.daemon.controlSocket)"])

        stop.wait()

        notifier.notify("STOPPING=1\nSTATUS=shutting down")
        logger.info("shutting down")
        // Every thread and timer ends before `run` returns: the process's exit handlers (OpenSSL's,
        // GnuTLS's) free what libcurl and alsa-lib use, under any thread still inside them.
        var late = group.stop()
        for source in signals where !source.cancelAndWait(timeout: 1) { late.append("wd-signals") }
        guard late.isEmpty else {
            // Exit handlers would run under the threads still at work: leave without them. The
            // database is consistent (every write is its own committed transaction).
            logger.warning("threads did not stop in time; exiting without exit handlers", metadata: ["threads": "\(late)"])
            fflush(nil)
            _exit(0)
        }
        return 0
    }

    /// The database a daemon of `configuration` opens: the demo band's own in demo mode.
    public static func databasePath(_ configuration: Configuration, demo: Bool) -> String {
        demo ? WavedialDatabase.demoPath(beside: configuration.catalog.database) : configuration.catalog.database
    }

    /// The exit status of a daemon whose database failed (EX_IOERR, as the CLI's).
    static let databaseFailureStatus: Int32 = 74

    /// The database at `path`; nil when it cannot be opened (said why).
    private func openDatabase(at path: String) -> WavedialDatabase? {
        do {
            return try WavedialDatabase.open(path: path)
        } catch {
            logger.critical("cannot open the database", metadata: ["database": "\(path)", "error": "\(error)"])
            notifier.notify("STATUS=cannot open the database: \(error)")
            return nil
        }
    }

    private func respond(to command: ControlCommand, controller: RadioController, display: DisplayService,
                         catalog: CatalogService, simulatedInput: SimulatedGPIOBackend?) -> ControlResponse {
        switch command {
        case .simEdges(let edges):
            guard let simulatedInput else { return .failure("sim_edges needs a simulated radio (wavediald --simulate or --headless)") }
            guard !edges.isEmpty else { return .failure("sim_edges needs edges") }
            do {
                try simulatedInput.schedule(edges.map { try $0.timedEdge().get() })
            } catch {
                return .failure("sim_edges: \(error)")
            }
            return ControlResponse(ok: true, status: controller.status)
        case .lcd:
            return ControlResponse(ok: true, lines: TerminalRenderer(framed: false).lines(display.screen))
        case .sync where demo:
            return .failure("the demo band has no catalog to sync: start wavediald without --demo for Radio Browser's")
        case .sync:
            do {
                return ControlResponse(ok: true, sync: try catalog.syncNow())
            } catch {
                return .failure("sync failed: \(error)", cause: error)
            }
        case .reload:
            return reload(controller) ?? ControlResponse(ok: true, status: controller.status)
        default:
            return controller.perform(command)
        }
    }

    /// Reads the configuration again (SIGHUP, `reload`); the dial and the location take
    /// effect at once, device settings at the next start. - Returns: an error reply, or nil.
    private func reload(_ controller: RadioController) -> ControlResponse? {
        do {
            controller.reload(try Configuration.load(path: configPath))
            logger.info("configuration reloaded")
            return nil
        } catch {
            logger.error("configuration not reloaded", metadata: ["error": "\(error)"])
            return .failure("config \(error)")
        }
    }

    /// The MPD server, when `[mpd] enabled`; under systemd on the socket unit made from `[mpd]` (its
    /// IPAddressAllow guards the clients).
    private func mpd(_ controller: RadioController, listeners: SystemdListeners) -> MpdServer? {
        guard configuration.mpd.isEnabled else { return nil }
        return MpdServer(settings: configuration.mpd, inherited: listeners.descriptors["mpd"].map(StreamSocket.adopting(listeningDescriptor:)),
                         radio: controller, logger: Logger(label: "wavedial.mpd"), attempts: passwordAttempts)
    }

    /// Reads the knob and buttons (``InputService``: restarted with back-off while the chip is missing
    /// or its lines are busy). Nil in the simulator (``SimulatedInput``: events come from `sim` requests).
    private func input(_ controller: RadioController) -> InputService? {
        guard mode == .appliance, configuration.hardware.backend == .gpiod else { return nil }
        return InputService(
            settings: configuration.hardware, logger: Logger(label: "wavedial.hardware"),
            onEvent: { controller.handle($0) }, onProblem: { controller.setNotice($0, from: "input") })
    }

    /// The IR remote, when `[ir] enabled` (``IRService``: the receiver opened again with back-off while it is
    /// missing), in the simulator too: its receiver is a real input device. Its keys become intents.
    private func remote(_ controller: RadioController) -> IRService? {
        guard configuration.ir.isEnabled else { return nil }
        let step = configuration.ir.volumeStepPercent
        return IRService(
            settings: configuration.ir, logger: Logger(label: "wavedial.hardware"),
            onAction: { controller.request(.forRemote($0, volumeStep: step)) },
            onProblem: { controller.setNotice($0, from: "ir") })
    }

    private func watchSignals(stop: DispatchSemaphore, stopRequested: OnceFlag, reload: @escaping () -> Void) -> [DispatchSourceSignal] {
        // Blocked before any thread exists, so in every thread (each inherits its creator's mask): the
        // signals then wait for libdispatch's signalfd. Unblocked, one could land on a thread that is
        // ending (a control client's, a resolver's) and be lost with it: SIGTERM would go unheard.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for number in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&blocked, number) }
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        let queue = DispatchQueue(label: "wd-signals")
        var sources: [DispatchSourceSignal] = []
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                stopRequested.set()
                stop.signal()
            }
            source.resume()
            sources.append(source)
        }
        signal(SIGHUP, SIG_IGN)
        let hangup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        hangup.setEventHandler(handler: reload)
        hangup.resume()
        sources.append(hangup)
        signal(SIGPIPE, SIG_IGN)
        return sources
    }
}
