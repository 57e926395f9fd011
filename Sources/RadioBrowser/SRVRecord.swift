import CResolv
import Foundation
import PrintableText

/// A DNS SRV record (RFC 2782): where a service runs.
public struct SRVRecord: Sendable, Equatable {
    public var priority: UInt16
    public var weight: UInt16
    public var port: UInt16
    public var target: String

    public init(priority: UInt16, weight: UInt16, port: UInt16, target: String) {
        self.priority = priority
        self.weight = weight
        self.port = port
        self.target = target
    }

    /// Looks up the SRV records of `name` with the system resolver (`res_query`).
    /// Blocks; call off the cooperative pool. Returns an empty list when the name has none
    /// or DNS cannot be reached.
    public static func lookup(_ name: String) -> [SRVRecord] {
        var answer = [UInt8](repeating: 0, count: 8192)
        let length = CResolv_query(name, Int32(ns_t_srv.rawValue), &answer, Int32(answer.count))
        guard length > 0 else { return [] }
        return parse(Array(answer.prefix(Int(length))))
    }

    /// The SRV records in a DNS response message (`ns_initparse`/`ns_parserr`); other
    /// records and malformed data are skipped.
    public static func parse(_ message: [UInt8]) -> [SRVRecord] {
        message.withUnsafeBufferPointer { buffer -> [SRVRecord] in
            guard let base = buffer.baseAddress else { return [] }
            var handle = ns_msg()
            guard ns_initparse(base, Int32(buffer.count), &handle) == 0 else { return [] }
            let answers = Int(handle._counts.1)
            var records: [SRVRecord] = []
            for index in 0..<answers {
                var record = ns_rr()
                guard ns_parserr(&handle, ns_s_an, Int32(index), &record) == 0,
                      record.type == UInt16(ns_t_srv.rawValue), record.rdlength >= 7, let data = record.rdata
                else { continue }
                func word(_ offset: Int) -> UInt16 { UInt16(data[offset]) << 8 | UInt16(data[offset + 1]) }
                var target = [CChar](repeating: 0, count: Int(NS_MAXDNAME))
                guard CResolv_expand(base, base + buffer.count, data + 6, &target, Int32(target.count)) >= 0 else { continue }
                records.append(SRVRecord(priority: word(0), weight: word(2), port: word(4), target: String(nulTerminated: target)))
            }
            return records
        }
    }
}
