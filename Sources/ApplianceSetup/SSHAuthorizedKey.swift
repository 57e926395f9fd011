import Foundation

/// One public key as a line of `authorized_keys`: `TYPE BASE64 [COMMENT]`, checked so that sshd will take it.
///
/// No options prefix (`from=…`, `command=…`): the owner pastes the one line of `~/.ssh/id_ed25519.pub`,
/// and a prefix pasted by mistake would restrict or break the only way in.
public struct SSHAuthorizedKey: Sendable, Equatable {
    /// The key types OpenSSH accepts from a user today (no DSA).
    public static let types: Set<String> = [
        "ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
        "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com",
    ]

    /// `ssh-ed25519`.
    public let type: String
    /// The base64 blob as written.
    public let blob: String
    /// What follows the blob (often `user@host`); empty when none.
    public let comment: String

    /// The line for `authorized_keys`, without its newline.
    public var line: String { comment.isEmpty ? "\(type) \(blob)" : "\(type) \(blob) \(comment)" }

    /// Parses and checks `text`.
    /// - Throws: ``Problem`` saying what is wrong, in words for the owner.
    public init(_ text: String) throws(Problem) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.unicodeScalars.contains(where: SetupRules.isControl) {
            throw Problem("must be one line of plain text (the line of your id_ed25519.pub), without line breaks or tabs")
        }
        let fields = trimmed.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard let first = fields.first.map(String.init), Self.types.contains(first) else {
            throw Problem("must start with the key's type (ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256, …): "
                          + "paste the one line of your .pub file, with no options before it")
        }
        guard fields.count >= 2 else { throw Problem("has no key after \"\(first)\"") }
        let blob = String(fields[1])
        guard let bytes = Data(base64Encoded: blob).map(Array.init), Self.blob(bytes, holds: first) else {
            throw Problem("is not a valid \(first) key: its base64 part is damaged or of another type")
        }
        type = first
        self.blob = blob
        comment = fields.count > 2 ? fields[2].trimmingCharacters(in: .whitespaces) : ""
    }

    /// Whether the key (type and blob; not the comment) is the one on `line` of an `authorized_keys` file.
    func isSameKey(asLine line: Substring) -> Bool {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        return fields.count >= 2 && fields[0] == type && fields[1] == blob
    }

    /// Whether `bytes` starts with the key type's name as SSH's wire format writes it: a 4-byte big-endian
    /// length, then the name.
    private static func blob(_ bytes: [UInt8], holds type: String) -> Bool {
        let name = Array(type.utf8)
        guard bytes.count > 4 + name.count else { return false }
        let length = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        return length == name.count && Array(bytes[4..<4 + name.count]) == name
    }

    /// Why a key was refused.
    public struct Problem: Error, Sendable, Equatable {
        public let message: String
        init(_ message: String) { self.message = message }
    }
}
