/// The input chain's decorator that joins a reconnection to the audio already buffered
/// (``StreamSplice``): a server's burst that repeats what the last connection delivered is skipped, so
/// the stream continues at the exact byte; otherwise the next stage gets a discontinuity.
final class SplicingSink: ElementaryStreamSink {
    private let next: ElementaryStreamSink
    private var splice = StreamSplice()
    private var encoding: AudioEncoding?
    private var keepGoing = true

    init(next: ElementaryStreamSink) {
        self.next = next
    }

    func begin(_ encoding: AudioEncoding) {
        // Another encoding never continues the last one's bytes.
        if encoding != self.encoding { splice = StreamSplice() }
        self.encoding = encoding
        next.begin(encoding)
        keepGoing = true
        splice.beginConnection(encoding, emit: emit)
    }

    func audio(_ bytes: UnsafeRawBufferPointer) -> Bool {
        splice.push(bytes, emit: emit)
        return keepGoing
    }

    func title(_ title: String) { next.title(title) }

    func discontinuity() {
        splice = StreamSplice()
        next.discontinuity()
    }

    func end() {
        splice.endConnection(emit: emit)
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
