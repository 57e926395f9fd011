import Glibc
import Threads

/// The audio thread's work: ring → the encoding's ``AudioDecoder`` → equal loudness (``LoudnessNormalizer``)
/// → volume and fades → the sweep stage (``SweepMix``) → ``AudioOutput``.
///
/// Handles station switches and pauses (fade out, play out the device buffer), underruns (back to
/// prebuffering, fade in when data returns), format changes (reopen the device), a lost device (closed,
/// re-opened with back-off while the stream keeps recording) and title timing (a title is published
/// when the frames after it leave the device, and only one the listener heard: at most one per
/// ``RingWriter/shortestHeardTitleSeconds`` of audio). While the needle sweeps with hiss and no programme
/// reaches the device (nothing tuned yet, connecting, between reads), the device plays the hiss alone, paced
/// by the clock. Runs only on `wd-audio`.
final class AudioLoop {
    /// The device failed to open or write (unplugged, or not there yet): why, and when to try again.
    private struct DeviceLoss {
        var since: Double
        var attempts: Int
        var nextAttempt: Double
        var error: Error
    }

    /// What the player last asked for, folded from its ``AudioCommand``s: the audio thread's own copy.
    struct Programme {
        var session: StationSession?
        /// When `session` was tuned, on the player's clock.
        var tunedAt = 0.0
        var paused = false
        var shuttingDown = false
        var gain: Float
        /// The sweep stage's setting; a station tuned ahead is silent without a sweep.
        var sweep: SweepMix.Setting?
        /// The alarm's tone sounds (while no station is tuned).
        var tone = false
        /// The player ended this session (it failed for good).
        var ended: StationSession?

        /// Whether the audio thread is to leave `session` (switch, pause or shut down).
        func leaves(_ session: StationSession) -> Bool { self.session !== session || paused || shuttingDown }

        mutating func apply(_ command: AudioCommand) {
            switch command {
            case .play(let next, let tunedAt):
                session = next
                self.tunedAt = tunedAt
                paused = false
                ended = nil
            case .pause: paused = true
            case .resume: paused = false
            case .setGain(let gain): self.gain = gain
            case .setSweep(let setting): sweep = setting
            case .setTone(let on): tone = on
            case .endSession(let session): ended = session
            case .shutDown: shuttingDown = true
            }
        }
    }

    private let commands: AudioCommandChannel
    private var programme: Programme
    private let report: (AudioEvent, StationSession?) -> Void
    private let loudnessMemory: LoudnessMemory
    private let settings: PlayerSettings
    private let output: AudioOutput
    /// The player's clock: the start timeout, status refreshes, the lost device's retries.
    private let clock: PlayerClock
    /// The device plays in real time: what paces the audio made here.
    private let deviceClock = MonotonicClock()
    /// The decoder for the bytes being read, picked by the ring's ``ByteRing/Mark/encoding(_:)`` marks.
    private var decoder: AudioDecoder?
    /// Decoders made so far, kept for the next station in the same encoding.
    private var decoders: [AudioEncoding: AudioDecoder] = [:]
    private var volume = Volume(gain: 0)
    private var sweep = SweepMix(sampleRate: 44100)
    /// The alarm's tone and its own fades (it starts silent and follows the volume).
    private var tone = AlarmTone(sampleRate: 44100)
    private var toneVolume = Volume(gain: 0)
    /// When the device will have played what was written to it, on ``deviceClock``: paces the
    /// hiss alone, also on a device that never blocks (ALSA's `null`, the tests' file capture).
    private var playedUntil = 0.0
    /// Equal loudness (nil when ``PlayerSettings/loudnessTarget`` is off).
    private let loudness: LoudnessNormalizer?
    private var current: StationSession?
    private var ringGeneration = 0
    private var audible = false
    private var fadingOut = false
    private var prebuffering = true
    private var finished = false
    private var playedInSession = false
    /// Frames of digital silence skipped at the session's start (at most ``leadingSilenceSeconds``).
    private var leadingSilenceSkipped = 0
    private var startTimeoutReported = false
    private var lastRefresh = 0.0
    /// Seconds of audio played since the stream's bitrate was last taken for the prebuffer.
    private var secondsSinceBitrate = 0.0
    private var input = [UInt8](repeating: 0, count: 4096)
    /// Decoded PCM: room for a decoder's largest read behind a chunk (``chunkSeconds``) of the device's format,
    /// grown when a format first needs more: room for eight channels at 48 kHz would be resident in every
    /// process that plays stereo.
    private var pcm = [Int16](repeating: 0, count: AudioDecoders.minimumReadBytes / 2)
    /// Decoded audio a pause's fade-out did not reach, in the format it was decoded in: heard first at the resume.
    private var keptAtPause: (format: PCMFormat, samples: [Int16])?
    /// Titles decoded, each due when the device has played up to its frame; at least the shortest heard span apart.
    private var pendingTitles: [(frame: Int64, title: String)] = []
    /// The frame of the title published last, in the device's current count (nil after a re-open).
    private var lastPublishedFrame: Int64?
    private var unconfirmedFormat: PCMFormat?
    private var lastFormat = PCMFormat(sampleRate: 44100, channels: 2)
    private var unconfirmedFrames = 0
    private var deviceLoss: DeviceLoss?
    /// When the device came back: a session that never played gets its start time again from here.
    private var deviceBackAt = 0.0

    /// Decoded chunks a new format must last before the device is reconfigured for it.
    private static let framesToConfirmFormat = 3
    /// Decoded audio is gathered into chunks before it is measured, scaled and written: all that one read of
    /// the ring decodes to, up to this many seconds. A codec frame is 20–26 ms (Opus, AAC, MP3), and the work
    /// done once a chunk (the loudness stage's set-up, clocks) then runs a few times a second instead of fifty.
    /// A read (4 KB, a quarter of a second at 128 kbit/s) is decoded in one run, the codec library's tables still
    /// in the cache: decoding it in 0.1 s chunks between writes cost HLS 1–2 CPU s an hour more
    /// (docs/BENCHMARKS.md). The writes keep their slices; a switch or a pause still takes effect within
    /// one (``writeSeconds``).
    private static let chunkSeconds = 0.4
    /// Samples a gathered chunk may reach: ``chunkSeconds`` at 48 kHz in 8 channels, or at 192 kHz in stereo.
    private static let chunkCapacitySamples = 163_840
    /// While sweeping, decoded audio is written in slices this long, the sweep's latest level applied to each:
    /// a write blocks until the device has room, and a level that waited for a whole decoded chunk (up to
    /// ``chunkSeconds``) would lag the needle by that much.
    private static let sweepSliceSeconds = 0.01
    /// The hiss alone keeps the device this far ahead (above a period of the default ALSA settings, so it
    /// does not run dry), topped up when it holds less than half.
    private static let hissLeadSeconds = 0.1
    /// The most audio one write hands the device, in seconds: a decoded chunk can be a quarter of a second,
    /// and a write of it blocks until the device took it all; in slices, a switch, a pause or a volume step
    /// is heard (and fades) within one slice. One period of the default ALSA settings: the device wakes the
    /// writer once a period anyway, and each write costs the same whatever its length (alsa-lib's plugins,
    /// the system call): 20 ms slices cost Opus 2 CPU s an hour more (docs/BENCHMARKS.md).
    private static let writeSeconds = 0.05
    /// Seconds of audio between readings of the stream's bitrate (what the prebuffer is measured in).
    private static let bitrateIntervalSeconds = 5.0
    /// Digital silence a station's first decoded audio may open with, skipped (in seconds): what an MP3
    /// decoder gives for the frames it cannot decode after joining a stream mid-frame, which a warm
    /// station's live edge always is. Past it, silence is the programme and plays.
    private static let leadingSilenceSeconds = 0.1

    /// - Parameters:
    ///   - programme: what the player asks for when the thread starts; `commands` change it from then on.
    ///   - report: tells the player what happened to the session it names (called on this thread).
    init(settings: PlayerSettings, output: AudioOutput, clock: PlayerClock, loudnessMemory: LoudnessMemory,
         programme: Programme, commands: AudioCommandChannel, report: @escaping (AudioEvent, StationSession?) -> Void) {
        self.settings = settings
        self.output = output
        self.clock = clock
        self.loudnessMemory = loudnessMemory
        self.programme = programme
        self.commands = commands
        self.report = report
        loudness = settings.loudnessTarget.map { LoudnessNormalizer(target: $0) }
    }

    /// Folds the commands sent since the last look into ``programme``.
    private func receiveCommands() {
        for command in commands.receive() { programme.apply(command) }
    }

    /// Waits for the next command, or `timeout` seconds.
    private func waitForCommands(timeout: Double) {
        commands.wait(timeout: timeout)
    }

    func run() {
        while true {
            receiveCommands()
            let command = programme
            if command.shuttingDown {
                fadeOut()
                startLoudness(of: nil)
                output.close()
                return
            }
            sweep.set(command.sweep, userGain: command.gain)
            let switching = command.session !== current
            if switching || fadingOut {
                // A station with audio ready (a warm one) follows the fade-out at once, behind it in the
                // device; otherwise the device plays out first. (A fade begun by `play` ends here too.)
                // Sweeping, the stations follow each other under the hiss: no pause to play out the device.
                fadeOut(drain: command.sweep == nil && (!switching || (command.session?.ring.count ?? 0) == 0))
                if switching { switchTo(command.session) }
            }
            if let ended = command.ended, ended === current {
                finished = true
                programme.ended = nil
            }
            guard let session = current else {
                if let due = toneAlone(command) ?? hissAlone(command) {
                    waitForCommands(timeout: due)
                    continue
                }
                if output.format != nil { output.drain() }
                output.close()
                waitForCommands(timeout: 1)
                continue
            }
            if command.paused {
                fadeOut()
                waitForCommands(timeout: 1)
                continue
            }
            if finished {
                if audible { fadeOut() }
                if let due = hissAlone(command) {
                    waitForCommands(timeout: due)
                    continue
                }
                output.close()
                waitForCommands(timeout: 1)
                continue
            }
            if !reopenDevice(session), let next = deviceLoss?.nextAttempt {
                waitForCommands(timeout: min(max(next - clock.now, 0.01), 0.25))
                continue
            }
            step(session, command)
        }
    }

    private func switchTo(_ session: StationSession?) {
        startLoudness(of: session)
        current = session
        if let loss = deviceLoss, let session {
            // Still gone: the new station says so at once; the retries go on as scheduled.
            report(.outputLost(loss.error), session)
        } else if session != nil && output.format == nil {
            // Open the device while the network connects: most streams have the last (or the usual) format,
            // so the first frame is written without waiting for snd_pcm_open. A failure is reported at the real open.
            try? output.open(format: lastFormat)
        }
        ringGeneration = session?.ring.generation ?? 0
        // Every session marks its encoding before its first audio.
        decoder = nil
        keptAtPause = nil
        pendingTitles.removeAll()
        lastPublishedFrame = nil
        prebuffering = true
        finished = false
        playedInSession = false
        leadingSilenceSkipped = 0
        startTimeoutReported = false
        report(.drained, session)
    }

    /// The bytes from here on are in `encoding`: its decoder, fresh. A codec library that cannot make
    /// one ends the station (a format it cannot play).
    private func switchDecoder(to encoding: AudioEncoding, session: StationSession) {
        if let existing = decoders[encoding] {
            decoder = existing
            try? existing.restart()
            return
        }
        do {
            let made = try AudioDecoders.make(for: encoding)
            decoders[encoding] = made
            decoder = made
        } catch {
            decoder = nil
            finished = true
            report(.decoderFailed(error), session)
        }
    }

    /// One read from the ring, decoded and played.
    private func step(_ session: StationSession, _ command: Programme) {
        let now = clock.now
        if !playedInSession && !startTimeoutReported && now - max(command.tunedAt, deviceBackAt) >= settings.startTimeout {
            // The player answers with ``AudioCommand/endSession(_:)`` when the station failed for good.
            startTimeoutReported = true
            report(.startTimedOut, session)
            return
        }
        if now - lastRefresh > 0.25 && !audible {
            lastRefresh = now
            report(.tick, session)
        }
        let ring = session.ring
        if ring.generation != ringGeneration {
            // The time-shift ran past its bound and the ring jumped to live: a new stream for the decoder.
            ringGeneration = ring.generation
            try? decoder?.restart()
            pendingTitles.removeAll()
            keptAtPause = nil
        }
        if playKeptAtPause(session, gain: command.gain) { return }
        if prebuffering {
            let needed = max(1, Int(settings.prebufferSeconds * Double(session.bytesPerSecond)))
            guard ring.waitUntilStored(atLeast: needed, timeout: 0.02) || ring.closed else {
                _ = hissAlone(command)
                return
            }
            prebuffering = false
        }
        for mark in ring.reachedMarks() {
            switch mark {
            case .title(let title):
                titleDecoded(title)
            case .discontinuity:
                // A new connection: its first frame does not continue the last one's partial frame.
                try? decoder?.restart()
            case .encoding(let encoding):
                switchDecoder(to: encoding, session: session)
            }
        }
        let count = read(from: ring, timeout: 0.02)
        guard count > 0 else {
            _ = hissAlone(command)
            // Only once the device itself has run dry is the listener hearing a gap.
            if audible && output.delayFrames == 0 {
                audible = false
                prebuffering = true
                report(.silent, session)
            }
            if ring.closed { waitForCommands(timeout: 0.25) }
            return
        }
        decode(count, session: session, gain: command.gain)
    }

    /// Reads into `input`, stopping at the next mark so it takes effect at its exact byte.
    private func read(from ring: ByteRing, timeout: Double) -> Int {
        var limit = input.count
        if let mark = ring.nextMarkPosition {
            let distance = mark - ring.readPosition
            if distance > 0 { limit = min(limit, Int(distance)) }
        }
        return input.withUnsafeMutableBytes { ring.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<limit]), timeout: timeout) }
    }

    /// Feeds `count` bytes of `input` and plays everything they decode to.
    private func decode(_ count: Int, session: StationSession, gain: Float) {
        guard let decoder else { return }
        do {
            try input.withUnsafeBytes { try decoder.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        } catch {
            try? decoder.restart()
            return
        }
        var emptyReads = 0
        // Samples decoded into `pcm` and not played yet: played once they make a chunk, or before
        // anything that must come after them (a title, a new format, the end of the bytes fed).
        var gathered = 0
        let chunkSamples = min(output.format.map { $0.frames(seconds: Self.chunkSeconds) * $0.channels } ?? 0,
                               Self.chunkCapacitySamples)
        if pcm.count < AudioDecoders.minimumReadBytes / 2 + chunkSamples {
            pcm = [Int16](repeating: 0, count: AudioDecoders.minimumReadBytes / 2 + chunkSamples)
        }
        while true {
            let result = pcm.withUnsafeMutableBytes { decoder.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[(gathered * 2)...])) }
            if gathered > 0, !Self.isPCM(result) {
                guard play(samples: gathered, session: session, gain: gain) else { return }
                gathered = 0
            }
            switch result {
            case .needMore:
                return
            case .title(let title):
                // In-band metadata: heard when the PCM decoded after it leaves the device.
                titleDecoded(title)
            case .newFormat(let format):
                unconfirmedFormat = format == output.format ? nil : format
                unconfirmedFrames = 0
            case .pcm(let bytes) where bytes == 0:
                emptyReads += 1
                if emptyReads > 8 { return }
            case .pcm(let bytes) where unconfirmedFormat != nil:
                // A format change is believed after a few frames: junk can pass for one frame header.
                unconfirmedFrames += 1
                guard unconfirmedFrames >= Self.framesToConfirmFormat || !playedInSession,
                      let format = unconfirmedFormat else { continue }
                unconfirmedFormat = nil
                // Re-opening drops what the device holds: the last station's fade-out too.
                if audible || output.delayFrames > 0 { output.drain() }
                lastFormat = format
                do {
                    try output.open(format: format)
                } catch {
                    deviceLost(error, session: session)
                    return
                }
                restartTitleFrames()
                if audible { volume.set(0) }
                guard play(samples: bytes / 2, session: session, gain: gain) else { return }
            case .pcm(let bytes):
                // With no device open (chunkSamples 0) each read is handed on at once, and dropped.
                gathered += bytes / 2
                if gathered >= chunkSamples {
                    guard play(samples: gathered, session: session, gain: gain) else { return }
                    gathered = 0
                }
            }
        }
    }

    /// Whether a decoder's `result` is PCM, which adds to the chunk being gathered; a title, a format change
    /// or a request for more bytes comes after the PCM gathered, which plays first. (Nothing is gathered
    /// while a new format waits to be believed: its change played what was gathered.)
    private static func isPCM(_ result: AudioDecoderOutput) -> Bool {
        if case .pcm = result { return true }
        return false
    }

    /// Applies equal loudness, volume and fades to the first `decoded` samples of `pcm` and writes them; false
    /// when the output failed. What a pause's fade-out does not reach is kept for the resume (``keptAtPause``).
    /// - Parameter normalized: the loudness stage has had these samples already (audio kept at a pause).
    private func play(samples decoded: Int, session: StationSession, gain: Float, normalized: Bool = false) -> Bool {
        guard let format = output.format else { return true }
        let fadeFrames = format.frames(seconds: settings.fadeSeconds)
        if !audible && !fadingOut {
            volume.set(0)
            volume.ramp(to: gain, overFrames: fadeFrames)
            sweep.programmeStarts()
        } else if !fadingOut && volume.target != gain {
            volume.ramp(to: gain, overFrames: fadeFrames)
        }
        var start = 0
        if !playedInSession {
            let silent = pcm.prefix(decoded).prefix { $0 == 0 }.count / format.channels
            let skipped = min(silent, format.frames(seconds: Self.leadingSilenceSeconds) - leadingSilenceSkipped)
            if skipped > 0 {
                leadingSilenceSkipped += skipped
                start = skipped * format.channels
                if start >= decoded { return true }
            }
        }
        if !normalized, let loudness {
            // Equal loudness is measured and applied on the decoded chunk as the station sent it, all of it: what
            // a pause's fade-out does not reach is heard at the resume.
            let report = pcm.withUnsafeMutableBufferPointer {
                loudness.process(UnsafeMutableBufferPointer(rebasing: $0[start..<decoded]), format: format)
            }
            if let report { loudnessMemory.measured(report) }
        }
        var samples = decoded
        if fadingOut {
            // Past the end of the fade-out there is only silence: writing it would delay the switch or
            // pause by as much audio as one read decodes to (up to a second at low bitrates).
            samples = min(samples, start + volume.framesToTarget * format.channels)
            guard samples > start else {
                keepForResume(start..<decoded, format: format, session: session)
                return true
            }
        }
        let slice = max(format.frames(seconds: sweep.isSweeping ? Self.sweepSliceSeconds : Self.writeSeconds), 1) * format.channels
        do {
            try pcm.withUnsafeMutableBufferPointer { buffer in
                sweep.adapt(to: format.sampleRate)
                var offset = start
                while offset < samples {
                    receiveCommands()
                    let latest = programme
                    if !fadingOut && latest.leaves(session) {
                        // A switch, pause or stop is waiting: the rest of this chunk is the fade-out.
                        fadingOut = true
                        volume.ramp(to: 0, overFrames: fadeFrames)
                        samples = min(samples, offset + volume.framesToTarget * format.channels)
                        continue
                    }
                    if offset > start {
                        sweep.set(latest.sweep, userGain: latest.gain)
                        // A volume step is heard at the next slice, not after the rest of a decoded chunk (up to 0.26 s).
                        if !fadingOut && volume.target != latest.gain { volume.ramp(to: latest.gain, overFrames: fadeFrames) }
                    }
                    let end = min(samples, offset + slice)
                    let chunk = UnsafeMutableBufferPointer(rebasing: buffer[offset..<end])
                    volume.apply(to: chunk, channels: format.channels)
                    sweep.apply(to: chunk, channels: format.channels)
                    try output.write(UnsafeBufferPointer(chunk))
                    offset = end
                    // A title is shown when its first frame leaves the device: looked for at every slice, as a
                    // chunk plays for up to ``chunkSeconds`` (a session's first, after it is reported audible).
                    if audible { publishDueTitles(session) }
                }
            }
        } catch {
            deviceLost(error, session: session)
            return false
        }
        if fadingOut && volume.framesToTarget == 0 { keepForResume(samples..<decoded, format: format, session: session) }
        wrote(frames: (samples - start) / max(format.channels, 1), at: format.sampleRate)
        if !audible && !fadingOut {
            audible = true
            playedInSession = true
            report(.audible, session)
        }
        publishDueTitles(session)
        secondsSinceBitrate += Double(samples - start) / Double(format.channels * format.sampleRate)
        if secondsSinceBitrate >= Self.bitrateIntervalSeconds, let info = decoder?.streamInfo, info.bitrate > 0 {
            secondsSinceBitrate = 0
            session.bytesPerSecond = info.bitrate * 125
        }
        return true
    }

    /// Keeps `pcm[range]`, decoded past the end of a pause's fade-out, to be heard first when the station
    /// resumes: a pause loses none of the time-shift (nor does one lifted before its fade ended). Only while the
    /// station stays (a switch or a stop drops it), and at most a chunk's worth (what `pcm` holds besides a
    /// decoder's read).
    private func keepForResume(_ range: Range<Int>, format: PCMFormat, session: StationSession) {
        guard !range.isEmpty, programme.session === session, !programme.shuttingDown else { return }
        if keptAtPause?.format != format { keptAtPause = (format, []) }
        let room = max(0, pcm.count - AudioDecoders.minimumReadBytes / 2 - (keptAtPause?.samples.count ?? 0))
        keptAtPause?.samples += pcm[range].prefix(room)
    }

    /// Plays the audio kept at a pause (``keepForResume(_:format:session:)``), faded in, when the device still
    /// has its format. - Returns: whether there was any to play.
    private func playKeptAtPause(_ session: StationSession, gain: Float) -> Bool {
        guard let kept = keptAtPause else { return false }
        keptAtPause = nil
        guard kept.format == output.format, !kept.samples.isEmpty else { return false }
        let count = min(kept.samples.count, pcm.count)
        pcm.withUnsafeMutableBufferPointer { buffer in
            kept.samples.withUnsafeBufferPointer { buffer.baseAddress!.update(from: $0.baseAddress!, count: count) }
        }
        _ = play(samples: count, session: session, gain: gain, normalized: true)
        return true
    }

    /// The loudness stage starts on `session`'s station at its stored loudness; the station before gets its last report.
    private func startLoudness(of session: StationSession?) {
        guard let loudness else { return }
        let stored = session.flatMap { loudnessMemory.loudness(of: $0.station.id) }
        if let last = loudness.start(station: session?.station, storedLoudness: stored) { loudnessMemory.measured(last) }
    }

    /// The device could not be opened or written: it is closed and tried again with back-off
    /// (``PlayerSettings/deviceRetry``) while the player keeps the stream recording.
    private func deviceLost(_ error: Error, session: StationSession) {
        output.close()
        audible = false
        let now = clock.now
        if deviceLoss == nil {
            deviceLoss = DeviceLoss(since: now, attempts: 0, nextAttempt: now + settings.deviceRetry.delay(attempt: 0, outage: 0),
                                    error: error)
        }
        report(.outputLost(error), session)
    }

    /// Tries the lost device again when its retry is due; true once it is open again.
    private func reopenDevice(_ session: StationSession) -> Bool {
        guard var loss = deviceLoss else { return true }
        let now = clock.now
        guard now >= loss.nextAttempt else { return false }
        do {
            try output.open(format: lastFormat)
        } catch {
            loss.attempts += 1
            loss.nextAttempt = now + settings.deviceRetry.delay(attempt: loss.attempts, outage: now - loss.since)
            loss.error = error
            deviceLoss = loss
            return false
        }
        deviceLoss = nil
        deviceBackAt = now
        prebuffering = true
        restartTitleFrames()
        report(.outputBack, session)
        return true
    }

    /// A title starts with the frames decoded from here on. It is due no sooner than the shortest heard span
    /// after the last one published, and it replaces a title still waiting that would be on for less than that.
    private func titleDecoded(_ title: String) {
        let rate = (output.format ?? lastFormat).sampleRate
        let shortest = Int64(RingWriter.shortestHeardTitleSeconds * Double(rate))
        var frame = output.framesWritten
        if let published = lastPublishedFrame { frame = max(frame, published + shortest) }
        if let last = pendingTitles.last, frame - last.frame < shortest { pendingTitles.removeLast() }
        pendingTitles.append((frame, title))
    }

    /// The device's frame count starts again at an open: the title still waiting (the latest) is due with the
    /// first frames.
    private func restartTitleFrames() {
        if let latest = pendingTitles.last { pendingTitles = [(0, latest.title)] }
        lastPublishedFrame = nil
    }

    /// Publishes the latest title whose first frame has been played (written minus what the device still
    /// holds); titles due before it were never heard on their own.
    private func publishDueTitles(_ session: StationSession) {
        guard !pendingTitles.isEmpty else { return }
        let played = output.framesWritten - Int64(output.delayFrames)
        var due: (frame: Int64, title: String)?
        while let first = pendingTitles.first, first.frame <= played { due = pendingTitles.removeFirst() }
        guard let due else { return }
        lastPublishedFrame = due.frame
        report(.titleReached(due.title), session)
    }

    /// The device took `frames` more: it plays them after what it holds (from now, when it had run dry).
    private func wrote(frames: Int, at sampleRate: Int) {
        playedUntil = max(playedUntil, deviceClock.now) + Double(frames) / Double(max(sampleRate, 1))
    }

    /// Writes the hiss alone while the sweep hisses (or its hiss fades out); the device is opened for it when
    /// closed. - Returns: the seconds until more is due, nil when there is no hiss to play (paused, not
    /// sweeping, the device lost).
    private func hissAlone(_ command: Programme) -> Double? {
        guard !command.paused, deviceLoss == nil, sweep.isHissing else { return nil }
        return writeGenerated { chunk, format in
            sweep.adapt(to: format.sampleRate)
            sweep.fillHiss(chunk, channels: format.channels)
        }
    }

    /// Writes the alarm's tone while it sounds (or fades out). - Returns: the seconds until more is due, nil
    /// when no tone sounds.
    private func toneAlone(_ command: Programme) -> Double? {
        let gain: Float = command.tone ? command.gain : 0
        guard command.tone || toneVolume.gain > 0, deviceLoss == nil else { return nil }
        return writeGenerated { chunk, format in
            if toneVolume.target != gain { toneVolume.ramp(to: gain, overFrames: format.frames(seconds: settings.fadeSeconds)) }
            if tone.sampleRate != format.sampleRate { tone = AlarmTone(sampleRate: format.sampleRate) }
            tone.fill(chunk, channels: format.channels)
            toneVolume.apply(to: chunk, channels: format.channels)
        }
    }

    /// Audio made here with no station (the hiss, the alarm's tone), kept ``hissLeadSeconds`` ahead in the
    /// device: written when it holds less than half of that, the device opened for it when closed.
    /// - Returns: the seconds until more is due; nil when the device cannot take it.
    private func writeGenerated(_ fill: (UnsafeMutableBufferPointer<Int16>, PCMFormat) -> Void) -> Double? {
        if output.format == nil { try? output.open(format: lastFormat) }
        guard let format = output.format else { return nil }
        let now = deviceClock.now
        let held = max(playedUntil - now, Double(output.delayFrames) / Double(format.sampleRate))
        guard held < Self.hissLeadSeconds / 2 else { return held - Self.hissLeadSeconds / 2 }
        let frames = min(format.frames(seconds: Self.hissLeadSeconds - held), pcm.count / max(format.channels, 1))
        guard frames > 0 else { return 0.01 }
        do {
            try pcm.withUnsafeMutableBufferPointer { buffer in
                let chunk = UnsafeMutableBufferPointer(rebasing: buffer[0..<frames * format.channels])
                fill(chunk, format)
                try output.write(UnsafeBufferPointer(chunk))
            }
        } catch {
            // A device that fails here fails the programme too, which reports it; this audio just stops.
            output.close()
            return nil
        }
        wrote(frames: frames, at: format.sampleRate)
        return Self.hissLeadSeconds / 2
    }

    /// Ramps to silence over the fade length using the audio still buffered, then plays out the device
    /// (unless `drain` is false: the next station follows at once, as while the needle sweeps).
    private func fadeOut(drain: Bool = true) {
        guard audible, let session = current, let format = output.format else {
            audible = false
            fadingOut = false
            return
        }
        fadingOut = true
        volume.ramp(to: 0, overFrames: format.frames(seconds: settings.fadeSeconds))
        var reads = 0
        while volume.gain > 0 && reads < 64 {
            reads += 1
            let count = read(from: session.ring, timeout: 0)
            guard count > 0 else { break }
            decode(count, session: session, gain: 0)
        }
        fadingOut = false
        if drain { output.drain() }
        audible = false
        report(.silent, session)
    }
}
