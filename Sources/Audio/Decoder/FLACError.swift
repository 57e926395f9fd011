import CFLAC

/// A libFLAC failure to set up a decoder: the function and what its status means.
public struct FLACError: Error, CustomStringConvertible, Sendable {
    public let function: String
    /// What went wrong, in the words of libFLAC's status names.
    public let reason: String

    public init(function: String, reason: String) {
        self.function = function
        self.reason = reason
    }

    /// The error of `FLAC__stream_decoder_init_stream` returning `status`.
    init(initStatus status: FLAC__StreamDecoderInitStatus) {
        let reason: String
        switch status {
        case FLAC__STREAM_DECODER_INIT_STATUS_UNSUPPORTED_CONTAINER: reason = "unsupported container"
        case FLAC__STREAM_DECODER_INIT_STATUS_INVALID_CALLBACKS: reason = "invalid callbacks"
        case FLAC__STREAM_DECODER_INIT_STATUS_MEMORY_ALLOCATION_ERROR: reason = "memory allocation error"
        case FLAC__STREAM_DECODER_INIT_STATUS_ALREADY_INITIALIZED: reason = "already initialized"
        default: reason = "status \(status.rawValue)"
        }
        self.init(function: "FLAC__stream_decoder_init_stream", reason: reason)
    }

    public var description: String { "\(function): \(reason)" }
}
