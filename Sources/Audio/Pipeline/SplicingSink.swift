/// The input chain's decorator that joins a reconnection to the audio already buffered
/// (``StreamSplice``): a server's burst that repeats what the last connection delivered is skipped, so
/// the stream continues at the exact byte; otherwise the next stage gets a discontinuity.
///
/// A station only kept warm is not joined: nothing plays its bytes yet, so a reconnection starts after
/// a discontinuity and no splice memory (up to 160 KB a station) is held for it.
final class SplicingSink: ElementaryStreamSink {
    private let next: ElementaryStreamSink
    private let isWarm: () -> Bool
    private var splice: StreamSplice?
    private var encoding: AudioEncoding?
    private var keepGoing = true

    /// - Parameter isWarm: whether the station is only kept warm now (asked on the network thread).
    init(next: ElementaryStreamSink, isWarm: @escaping () -> Bool = { false }) {
        self.next = next
        self.isWarm = isWarm
    }

    func begin(_ encoding: AudioEncoding) {
        // Another encoding never continues the last one's bytes.
        if encoding != self.encoding || isWarm() { splice = nil }
        self.encoding = encoding
        next.begin(encoding)
        keepGoing = true
        var joining = splice.take() ?? StreamSplice()
        joining.beginConnection(encoding, emit: emit)
        splice = joining
    }

    func audio(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if isWarm() {
            // Bytes held to be matched pass on first (after a discontinuity); the memory goes.
            if var leaving = splice.take() { leaving.endConnection(emit: emit) }
            emit(.audio(bytes))
        } else {
            // Played from here (also a warm station just adopted): remembered for the next reconnection.
            var joining = splice.take() ?? StreamSplice()
            joining.push(bytes, emit: emit)
            splice = joining
        }
        return keepGoing
    }

    func title(_ title: String) { next.title(title) }

    func discontinuity() {
        splice = nil
        next.discontinuity()
    }

    func end() {
        if var joining = splice.take() {
            joining.endConnection(emit: emit)
            splice = joining
        }
        next.end()
    }

    private func emit(_ output: StreamSplice.Output) {
        switch output {
        case .discontinuity:
            next.discontinuity()
        case .audio(let bytes):
            if keepGoing { keepGoing = next.audio(bytes) }
        }
    }
}
