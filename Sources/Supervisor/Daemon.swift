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

/// `wavediald`: starts the subsystems in dependency order — store, catalog, audio, input,
/// display, controller, control socket — supervises them, talks to systemd, and on
/// SIGTERM/SIGINT stops them in reverse (fade out, close devices, flush) and exits 0.
/// SIGHUP reloads the configuration.
public final class Daemon {
    /// How the appliance meets the world.
    public enum Mode: Sendable, Equatable {
        /// Real GPIO and LCD as configured.
        case appliance
        /// Simulated knob and buttons, no LCD; `interactive` draws the LCD in the terminal
        /// and reads keys, else it is driven by `wavedial sim …` only (`--headless`).
        case simulator(interactive: Bool)
    }

    private let configPath: String
    private var configuration: Configuration
    private let mode: Mode
    private let demo: Bool
    private let logger: Logger
    private let notifier = SystemdNotifier()

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
        let mixer: AlsaMixer?
        do {
            mixer = try configuration.audio.mixer.open()
        } catch {
            logger.critical("[audio] mixer_control: \(error)")
            notifier.notify("STATUS=[audio] mixer_control: \(error)")
            return 1
        }
        let databasePath = demo ? WavedialDatabase.demoPath(beside: configuration.catalog.database) : configuration.catalog.database
        let database: WavedialDatabase
        do {
            database = try WavedialDatabase.open(path: databasePath)
        } catch {
            logger.critical("cannot open the database", metadata: ["database": "\(databasePath)", "error": "\(error)"])
            notifier.notify("STATUS=cannot open the database: \(error)")
            return 1
        }
        let demoBand = demo ? startDemoBand(database: database, databasePath: databasePath, stopRequested: stopRequested) : nil
        if demo {
            guard demoBand != nil else { return stopRequested.isSet ? 0 : 1 }
        }

        let player = Player(settings: configuration.audio, logger: Logger(label: "wavedial.audio"), mixer: mixer)
        let loudness = LoudnessRecorder(database: database, logger: logger)
        loudness.start(player: player)
        let simulated = mode != .appliance
        var controllerReference: RadioController?
        let display = DisplayService(
            settings: configuration.display, useLCD: !simulated,
            initialState: DisplayViewState(phase: .idle, clock: Date()), logger: Logger(label: "wavedial.display")
        ) { problem in controllerReference?.setNotice(problem, from: "display") }
        let clicks = ClickReporter(servers: configuration.catalog.servers, logger: logger)
        // Radio Browser counts plays of its own stations only: the demo band's are never reported.
        let reportPlay: (Station) -> Void = demo ? { _ in } : { clicks.report($0) }
        let controller = RadioController(
            configuration: configuration, database: database, player: player,
            display: { display.update($0) }, reportPlay: reportPlay,
            isServedHere: { demoBand?.isLocalDemo($0) ?? false }, logger: Logger(label: "wavedial.controller"))
        // Ticks time the knob's rest (20 ms while it turns) and otherwise refresh the clock and counters.
        let ticker = DispatchSource.makeTimerSource(queue: controller.queue)
        func pace(fast: Bool) {
            ticker.schedule(deadline: .now(), repeating: .milliseconds(fast ? 20 : 250), leeway: .milliseconds(fast ? 2 : 25))
        }
        pace(fast: false)
        controller.onTickPace = pace
        ticker.setEventHandler { controller.tick() }
        controllerReference = controller
        controllerForReload = controller
        let catalog = CatalogService(
            database: database, settings: configuration.catalog, logger: Logger(label: "wavedial.catalog"),
            onNotice: { controller.setNotice($0, from: "catalog") }, onSynced: { controller.reload() })

        display.start()
        controller.start(resume: configuration.daemon.resumeOnStart)
        // The demo band's database holds the demo band only: the catalog is never synced into it.
        if !demo { catalog.start() }
        let input = startInput(controller)
        let simulatedInput = startSimulatedInput(controller)
        let remote = startRemote(controller)
        ticker.resume()

        // Before the control socket: a client that sees the daemon answer finds the page served too.
        let web = startWeb(listeners: listeners, backend: WebBackend(
            perform: { [self] command in
                respond(to: command, controller: controller, display: display, catalog: catalog, simulatedInput: simulatedInput?.backend)
            },
            dialListing: { controller.dialListing() }, search: { try database.search($0) }))
        let server = ControlServer(
            path: configuration.daemon.controlSocket, logger: Logger(label: "wavedial.control"),
            respond: { [self] command in
                respond(to: command, controller: controller, display: display, catalog: catalog, simulatedInput: simulatedInput?.backend)
            },
            subscribe: controller.subscribe)
        do {
            try server.start()
        } catch {
            logger.critical("cannot open the control socket", metadata: ["control.socket": "\(configuration.daemon.controlSocket)", "error": "\(error)"])
            notifier.notify("STATUS=cannot open the control socket: \(error)")
            _ = web?.stop(waitingUpTo: 2)
            _ = demoBand?.stop(waitingUpTo: 2)
            return 1
        }

        let mpd = startMpd(controller, listeners: listeners)

        let terminal = mode == .simulator(interactive: true)
            ? TerminalSimulator(
                controller: controller, display: display,
                banner: demo ? "Offline demo band: made-up stations, made and played on this machine" : nil,
                onQuit: { stop.signal() }) : nil
        terminal?.start()
        notifier.notify("READY=1\nSTATUS=playing radio; control socket \(configuration.daemon.controlSocket)")
        let released = MappedImages.releaseStartUpPages()
        logger.debug("start-up pages released", metadata: ["regions": "\(released.count)"])
        let pageRelease = SettledPageRelease(logger: logger)
        pageRelease.start(following: controller)
        let watchdog = startWatchdog(controller)
        logger.info("wavediald ready", metadata: ["control.socket": "\(configuration.daemon.controlSocket)"])

        stop.wait()

        notifier.notify("STOPPING=1\nSTATUS=shutting down")
        logger.info("shutting down")
        pageRelease.stop()
        terminal?.stop()
        // Every thread and timer ends before `run` returns: the process's exit handlers (OpenSSL's,
        // GnuTLS's) free what libcurl and alsa-lib use, under any thread still inside them. A sync
        // is cancelled first, so control clients waiting on it can end.
        var late: [String] = []
        func ended(_ name: String, _ done: Bool) { if !done { late.append(name) } }
        ended("wd-sync", catalog.stop(waitingUpTo: 10))
        ended("wd-web", web?.stop(waitingUpTo: 3) ?? true)
        ended("wd-control", server.stop(waitingUpTo: 3))
        ended("wd-mpd", mpd?.stop(waitingUpTo: 3) ?? true)
        ended("wd-gpio-supervisor", input?.stop(waitingUpTo: 2) ?? true)
        ended("wd-ir-supervisor", remote?.stop(waitingUpTo: 2) ?? true)
        simulatedInput?.reader.stop()  // wakes its simulated lines: returns as soon as wd-gpio has ended
        ended("wd-watchdog", watchdog.map { Self.cancelAndWait($0, timeout: 2) } ?? true)
        ended("ticker", Self.cancelAndWait(ticker, timeout: 1))
        controller.shutdown()
        ended("wd-clicks", clicks.stop(waitingUpTo: 2))
        ended("wd-audio/wd-net", player.shutdown())
        // After the player: its stations' last measurements come as it stops.
        ended("wd-loudness", loudness.stop(waitingUpTo: 2))
        ended("wd-demo-accept/wd-demo-stream", demoBand?.stop(waitingUpTo: 3) ?? true)
        ended("wd-lcd", display.stop(waitingUpTo: 2))
        for source in signals { ended("wd-signals", Self.cancelAndWait(source, timeout: 1)) }
        guard late.isEmpty else {
            // Exit handlers would run under the threads still at work: leave without them. The
            // database is consistent (every write is its own committed transaction).
            logger.warning("threads did not stop in time; exiting without exit handlers", metadata: ["threads": "\(late)"])
            fflush(nil)
            _exit(0)
        }
        return 0
    }

    /// Cancels `source` and waits until a handler it is running has returned. - Returns: whether it did in time.
    private static func cancelAndWait(_ source: DispatchSourceProtocol, timeout: Double) -> Bool {
        let cancelled = DispatchSemaphore(value: 0)
        source.setCancelHandler { cancelled.signal() }
        source.cancel()
        return cancelled.wait(timeout: .now() + timeout) == .success
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
                return .failure("sync failed: \(error)")
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
            let fresh = try Configuration.load(path: configPath)
            configuration = fresh
            controller.reload(fresh)
            logger.info("configuration reloaded")
            return nil
        } catch {
            logger.error("configuration not reloaded", metadata: ["error": "\(error)"])
            return .failure("config \(error)")
        }
    }

    /// The web page, when `[web] enabled`; nil too when it cannot listen (said why: the radio plays on without it).
    private func startWeb(listeners: SystemdListeners, backend: WebBackend) -> WebServer? {
        // Under systemd the socket unit made from [web] listens (its IPAddressAllow guards the clients).
        let inherited = listeners.descriptors["web"].map { StreamSocket.adopting(listeningDescriptor: $0) }
        return WebServer.start(configuration.web, inherited: inherited, backend: backend, logger: Logger(label: "wavedial.web"))
    }

    /// The MPD server, when `[mpd] enabled`. One that cannot listen (the port taken) is left out and said
    /// why: the radio plays on without it.
    private func startMpd(_ controller: RadioController, listeners: SystemdListeners) -> MpdServer? {
        guard configuration.mpd.isEnabled else { return nil }
        let server = MpdServer(settings: configuration.mpd, radio: controller, logger: Logger(label: "wavedial.mpd"))
        // Under systemd the socket unit made from [mpd] listens (its IPAddressAllow guards the clients).
        let inherited = listeners.descriptors["mpd"].map { StreamSocket.adopting(listeningDescriptor: $0) }
        do {
            try server.start(inherited: inherited)
            return server
        } catch {
            logger.error("the MPD server cannot listen", metadata: ["mpd.bind": "\(configuration.mpd.bind)", "mpd.port": "\(configuration.mpd.port)", "error": "\(error)"])
            return nil
        }
    }

    /// Reads the knob and buttons (``InputService``: restarted with back-off while the chip is missing
    /// or its lines are busy). Nil in the simulator (events come from `sim` requests).
    private func startInput(_ controller: RadioController) -> InputService? {
        guard mode == .appliance, configuration.hardware.backend == .gpiod else { return nil }
        let input = InputService(
            settings: configuration.hardware, logger: Logger(label: "wavedial.hardware"),
            onEvent: { controller.handle($0) }, onProblem: { controller.setNotice($0, from: "input") })
        input.start()
        return input
    }

    /// The IR remote, when `[ir] enabled` (``IRService``: the receiver opened again with back-off while it is
    /// missing), in the simulator too: its receiver is a real input device. Its keys become intents.
    private func startRemote(_ controller: RadioController) -> IRService? {
        guard configuration.ir.isEnabled else { return nil }
        let step = configuration.ir.volumeStepPercent
        let remote = IRService(
            settings: configuration.ir, logger: Logger(label: "wavedial.hardware"),
            onAction: { controller.request(.forRemote($0, volumeStep: step)) },
            onProblem: { controller.setNotice($0, from: "ir") })
        remote.start()
        return remote
    }

    /// The simulator's knob and buttons: the appliance's reader and decoder over simulated lines
    /// that `sim_edges` requests drive (debounce, Gray code, acceleration as on the real radio).
    private func startSimulatedInput(_ controller: RadioController) -> (reader: InputReader, backend: SimulatedGPIOBackend)? {
        guard mode != .appliance else { return nil }
        var settings = configuration.hardware
        settings.backend = .simulated
        // The encoders rest with both contacts open: pulled up, they read 1.
        let backend = SimulatedGPIOBackend(idleLevels: [
            "encoder.a": true, "encoder.b": true, "volume_encoder.a": true, "volume_encoder.b": true,
        ])
        let reader = InputReader(
            settings: settings, backend: backend, logger: Logger(label: "wavedial.hardware"),
            handlers: .init(event: { controller.handle($0) }, failure: { [logger] error in
                logger.error("simulated input stopped", metadata: ["error": "\(error)"])
            }))
        do {
            try reader.start()
        } catch {
            logger.error("simulated input not started", metadata: ["error": "\(error)"])
            return nil
        }
        return (reader, backend)
    }

    /// Makes and starts the demo band (media made at first start, told on stderr as it goes: the terminal
    /// simulator clears the screen only once the radio runs). - Returns: nil when it could not start (said
    /// why) or a stop came meanwhile (`stopRequested`).
    private func startDemoBand(database: WavedialDatabase, databasePath: String, stopRequested: OnceFlag) -> DemoBand? {
        let environment = ProcessInfo.processInfo.environment
        let media = DemoMedia(directory: DemoMedia.defaultDirectory(environment: environment, databasePath: databasePath))
        let band = DemoBand(media: media, logger: Logger(label: "wavedial.demo"))
        do {
            try band.start(
                database: database, location: configuration.location.coordinate,
                searchPath: environment["PATH"] ?? "/usr/bin:/bin", shouldContinue: { !stopRequested.isSet },
                progress: { made, total in
                    // One line redrawn on a terminal, a line a station in a log.
                    let end = isatty(STDERR_FILENO) == 1 && made < total ? "\r" : "\n"
                    let text = "wavediald: making the demo band's audio, once (kept in \(band.mediaDirectory)): \(made) of \(total)"
                    FileHandle.standardError.write(Data((text + end).utf8))
                })
            return band
        } catch {
            _ = band.stop(waitingUpTo: 2)
            if case DemoBandError.cancelled = error { return nil }
            logger.critical("the demo band cannot start", metadata: ["error": "\(error)"])
            notifier.notify("STATUS=the demo band cannot start: \(error)")
            return nil
        }
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

    /// Pings systemd's watchdog at half its interval while the controller answers.
    private func startWatchdog(_ controller: RadioController) -> DispatchSourceTimer? {
        guard let interval = notifier.watchdogInterval, interval > 0 else { return nil }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "wd-watchdog"))
        timer.schedule(deadline: .now(), repeating: interval / 2)
        timer.setEventHandler { [notifier] in
            let pong = DispatchSemaphore(value: 0)
            controller.queue.async { pong.signal() }
            if pong.wait(timeout: .now() + interval / 4) == .success { notifier.notify("WATCHDOG=1") }
        }
        timer.resume()
        return timer
    }
}
