import CCurl
import Glibc
import Threads

/// One libcurl easy handle (`curl_easy_init`), owned: `deinit` calls `curl_easy_cleanup`.
///
/// Not thread-safe: configure and ``perform(onHeader:onData:)`` on one thread (a
/// dedicated one, since `curl_easy_perform` blocks). ``cancel()`` may be called from
/// any thread; the transfer then ends with an aborted ``CurlError``, at once even while
/// libcurl waits on a quiet connection (its sockets are shut down, see ``TransferSockets``).
public final class CurlEasy {
    private let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var aliasList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private let cancelled = OnceFlag()
    /// Outlives the handle's connections: `curl_easy_cleanup` in `deinit` still closes through it.
    private let sockets = TransferSockets()

    /// Runs `curl_global_init` once per process, before the first handle exists.
    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    /// Initialises libcurl now (`curl_global_init`, which initialises OpenSSL) rather than at the first
    /// transfer: a program with threads calls it at start, so no thread is inside it when the process
    /// exits and OpenSSL's exit handler runs. Any thread; only the first call does anything.
    public static func initializeLibrary() {
        _ = globalInit
    }

    public init() throws {
        _ = Self.globalInit
        guard let handle = curl_easy_init() else {
            throw CurlError(code: CURLE_FAILED_INIT, function: "curl_easy_init")
        }
        self.handle = handle
        errorBuffer.initialize(to: 0)
        try check(CCurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
        // Signals would interrupt other threads of the daemon; timeouts use the threaded resolver instead.
        try set(CURLOPT_NOSIGNAL, 1)
        let opaque = Unmanaged.passUnretained(sockets).toOpaque()
        try check(CCurl_setopt_opensocket_function(handle, curlOpenSocket), "CURLOPT_OPENSOCKETFUNCTION")
        try check(CCurl_setopt_pointer(handle, CURLOPT_OPENSOCKETDATA, opaque), "CURLOPT_OPENSOCKETDATA")
        try check(CCurl_setopt_closesocket_function(handle, curlCloseSocket), "CURLOPT_CLOSESOCKETFUNCTION")
        try check(CCurl_setopt_pointer(handle, CURLOPT_CLOSESOCKETDATA, opaque), "CURLOPT_CLOSESOCKETDATA")
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        curl_slist_free_all(aliasList)
        errorBuffer.deallocate()
    }

    // MARK: Options

    /// Sets `option` for the transfers from now on (`curl_easy_setopt`). - Throws: ``CurlError`` when
    /// libcurl refuses it (an option this libcurl was built without).
    public func set(_ option: CurlOption) throws {
        for (name, value) in option.settings {
            switch value {
            case .number(let number): try set(name, number)
            case .text(let text): try set(name, text)
            }
        }
    }

    func set(_ option: CURLoption, _ value: Int) throws {
        try check(CCurl_setopt_long(handle, option, value), "curl_easy_setopt")
    }

    /// libcurl copies string options (since 7.17), so `value` need not outlive the call.
    func set(_ option: CURLoption, _ value: String) throws {
        try check(value.withCString { CCurl_setopt_string(handle, option, $0) }, "curl_easy_setopt")
    }

    /// Replaces the request headers (`CURLOPT_HTTPHEADER`), e.g. `["Icy-MetaData: 1"]`.
    public func setHeaders(_ headers: [String]) throws {
        curl_slist_free_all(headerList)
        headerList = Self.slist(headers)
        try check(CCurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), "CURLOPT_HTTPHEADER")
    }

    /// Judges every address the handle connects to by `policy` from now on (the name's resolved
    /// addresses, each redirect's, a proxy's); nil (the default) allows any. A refused address is
    /// never connected to; when no address is left the transfer fails with a ``CurlError`` whose
    /// ``CurlError/refusal`` says which address and why.
    public func setAddressPolicy(_ policy: AddressPolicy?) {
        sockets.policy = policy
    }

    /// Calls `observer` on the transfer's thread each time libcurl opens a connection to an address the
    /// policy allows (the name has resolved; a redirect to another server opens another); nil stops it.
    public func observeConnections(_ observer: (@Sendable () -> Void)?) {
        sockets.onOpen = observer
    }

    /// Status lines accepted as `HTTP/1.0 200` (`CURLOPT_HTTP200ALIASES`), e.g. SHOUTcast's `ICY 200 OK`.
    public func setHTTP200Aliases(_ aliases: [String]) throws {
        curl_slist_free_all(aliasList)
        aliasList = Self.slist(aliases)
        try check(CCurl_setopt_slist(handle, CURLOPT_HTTP200ALIASES, aliasList), "CURLOPT_HTTP200ALIASES")
    }

    // MARK: Transfer

    /// Runs the transfer (`curl_easy_perform`), blocking until it ends.
    ///
    /// - Parameters:
    ///   - onHeader: each response header line, without its line break (status lines included,
    ///     once per response, so redirects show several).
    ///   - onProgress: called by libcurl about once a second, also while no data flows
    ///     (`CURLOPT_XFERINFOFUNCTION`); return `false` to stop the transfer (e.g. a stall watchdog).
    ///   - onData: each chunk of the body; return `false` to stop the transfer.
    /// - Throws: ``CurlError`` when the transfer fails or is stopped.
    public func perform(
        onHeader: ((String) -> Void)? = nil,
        onProgress: (() -> Bool)? = nil,
        onData: @escaping (UnsafeRawBufferPointer) -> Bool
    ) throws {
        let callbacks = TransferCallbacks(onHeader: onHeader, onProgress: onProgress, onData: onData, cancelled: cancelled)
        let context = Unmanaged.passRetained(callbacks)
        defer { context.release() }
        let opaque = context.toOpaque()

        try check(CCurl_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, curlWriteBody), "CURLOPT_WRITEFUNCTION")
        try check(CCurl_setopt_pointer(handle, CURLOPT_WRITEDATA, opaque), "CURLOPT_WRITEDATA")
        try check(CCurl_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader), "CURLOPT_HEADERFUNCTION")
        try check(CCurl_setopt_pointer(handle, CURLOPT_HEADERDATA, opaque), "CURLOPT_HEADERDATA")
        try check(CCurl_setopt_xferinfo_function(handle, curlProgress), "CURLOPT_XFERINFOFUNCTION")
        try check(CCurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, opaque), "CURLOPT_XFERINFODATA")
        try set(CURLOPT_NOPROGRESS, 0)

        errorBuffer.pointee = 0
        sockets.forgetRefusal()
        var code = curl_easy_perform(handle)
        // A cancel may end the transfer through its shut-down sockets (end of stream, receive error): still a cancel.
        if cancelled.isSet { code = CURLE_ABORTED_BY_CALLBACK }
        guard code == CURLE_OK else {
            // A refused address is why a connect failed; another address of the name may have failed otherwise.
            let refusal = code == CURLE_COULDNT_CONNECT ? sockets.refusal : nil
            throw CurlError(code: code, function: "curl_easy_perform", detail: String(cString: errorBuffer), refusal: refusal)
        }
    }

    /// Asks a running ``perform(onHeader:onData:)`` to stop; safe from any thread.
    public func cancel() {
        cancelled.set()
        // libcurl checks the flag only in its callbacks, which a quiet connection calls about once
        // a second: shutting the sockets down wakes its poll now.
        sockets.shutDownAll()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.isSet }

    // MARK: Information about the last transfer

    /// The last response's HTTP status (`CURLINFO_RESPONSE_CODE`), 0 before any.
    public var responseCode: Int {
        var value = 0
        _ = CCurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &value)
        return value
    }

    /// The `errno` of the last failed connect (`CURLINFO_OS_ERRNO`), 0 when none: tells a refused
    /// connection (`ECONNREFUSED`) from an unreachable network.
    public var osErrno: Int32 {
        var value = 0
        _ = CCurl_getinfo_long(handle, CURLINFO_OS_ERRNO, &value)
        return Int32(truncatingIfNeeded: value)
    }

    /// The URL after redirects (`CURLINFO_EFFECTIVE_URL`).
    public var effectiveURL: String? { stringInfo(CURLINFO_EFFECTIVE_URL) }

    /// The last response's `Content-Type` (`CURLINFO_CONTENT_TYPE`).
    public var contentType: String? { stringInfo(CURLINFO_CONTENT_TYPE) }

    /// Body bytes received by the last transfer, after decoding (`CURLINFO_SIZE_DOWNLOAD_T`).
    public var bytesDownloaded: Int64 {
        var value: curl_off_t = 0
        _ = CCurl_getinfo_off(handle, CURLINFO_SIZE_DOWNLOAD_T, &value)
        return Int64(value)
    }

    private func stringInfo(_ info: CURLINFO) -> String? {
        var pointer: UnsafeMutablePointer<CChar>?
        guard CCurl_getinfo_string(handle, info, &pointer) == CURLE_OK, let pointer else { return nil }
        return String(cString: pointer)
    }

    private func check(_ code: CURLcode, _ function: String) throws {
        guard code == CURLE_OK else { throw CurlError(code: code, function: function) }
    }

    private static func slist(_ strings: [String]) -> UnsafeMutablePointer<curl_slist>? {
        var list: UnsafeMutablePointer<curl_slist>?
        for string in strings { list = curl_slist_append(list, string) }
        return list
    }
}

/// The closures of one transfer, reached from libcurl's C callbacks through an opaque pointer.
private final class TransferCallbacks {
    let onHeader: ((String) -> Void)?
    let onProgress: (() -> Bool)?
    let onData: (UnsafeRawBufferPointer) -> Bool
    let cancelled: OnceFlag

    init(onHeader: ((String) -> Void)?, onProgress: (() -> Bool)?, onData: @escaping (UnsafeRawBufferPointer) -> Bool,
         cancelled: OnceFlag) {
        self.onHeader = onHeader
        self.onProgress = onProgress
        self.onData = onData
        self.cancelled = cancelled
    }
}

private func curlWriteBody(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    let callbacks = Unmanaged<TransferCallbacks>.fromOpaque(context!).takeUnretainedValue()
    let length = size * count
    if callbacks.cancelled.isSet { return 0 }
    let accepted = callbacks.onData(UnsafeRawBufferPointer(start: data, count: length))
    return accepted ? length : 0
}

private func curlWriteHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    let callbacks = Unmanaged<TransferCallbacks>.fromOpaque(context!).takeUnretainedValue()
    let length = size * count
    if let onHeader = callbacks.onHeader, let data {
        let bytes = UnsafeRawBufferPointer(start: data, count: length)
        // Header bytes are mostly ASCII; Latin-1 never fails, so odd servers still get through.
        var line = String(decoding: bytes, as: UTF8.self)
        if line.contains("\u{FFFD}") { line = String(bytes.map { Character(Unicode.Scalar($0)) }) }
        var trimmed = Substring(line)
        while trimmed.first?.isNewline == true { trimmed.removeFirst() }
        while trimmed.last?.isNewline == true { trimmed.removeLast() }
        onHeader(String(trimmed))
    }
    return length
}

private func curlProgress(
    _ context: UnsafeMutableRawPointer?, _ dlTotal: curl_off_t, _ dlNow: curl_off_t,
    _ ulTotal: curl_off_t, _ ulNow: curl_off_t
) -> Int32 {
    let callbacks = Unmanaged<TransferCallbacks>.fromOpaque(context!).takeUnretainedValue()
    if callbacks.cancelled.isSet { return 1 }
    if let onProgress = callbacks.onProgress, !onProgress() { return 1 }
    return 0
}

private func curlOpenSocket(
    _ context: UnsafeMutableRawPointer?, _ purpose: curlsocktype, _ address: UnsafeMutablePointer<curl_sockaddr>?
) -> curl_socket_t {
    guard let address else { return CURL_SOCKET_BAD }
    let sockets = Unmanaged<TransferSockets>.fromOpaque(context!).takeUnretainedValue()
    // `addr` is the head of storage `addrlen` long (a sockaddr_in6 does not fit a sockaddr).
    let offset = MemoryLayout<curl_sockaddr>.offset(of: \.addr)!
    let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(address) + offset, count: Int(address.pointee.addrlen))
    return sockets.open(family: address.pointee.family, type: address.pointee.socktype, protocol: address.pointee.protocol,
                        address: bytes) ?? CURL_SOCKET_BAD
}

private func curlCloseSocket(_ context: UnsafeMutableRawPointer?, _ socket: curl_socket_t) -> Int32 {
    Unmanaged<TransferSockets>.fromOpaque(context!).takeUnretainedValue().close(socket)
}
