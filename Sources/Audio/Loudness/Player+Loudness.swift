extension Player {
    /// Calls `handler` with each measurement of a station's loudness (``LoudnessReport``): every few seconds
    /// once a station has played ``LoudnessNormalizer/reportAfterSeconds``, and once more when it ends. Called
    /// on the audio thread, so it must only hand the report on (to a queue of its own) and return.
    /// Nothing is measured while ``PlayerSettings/loudnessTarget`` is nil.
    public func observeLoudness(_ handler: @escaping (LoudnessReport) -> Void) -> Observation {
        loudnessMemory.observe(handler)
    }

    /// Stations' stored loudness (LUFS by station id, e.g. from the database at start): the guess each
    /// starts at when tuned, before it is measured again. At most ``LoudnessMemory/capacity`` are kept. Any thread.
    public func rememberLoudness(_ measurements: [String: Double]) {
        loudnessMemory.remember(measurements)
    }
}
