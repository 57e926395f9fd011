/// Splits an MPD request line into a command and its arguments, by MPD's quoting rules: arguments are
/// separated by blanks; one in double quotes may hold blanks, and inside quotes a backslash makes the
/// next character literal (`"say \"hi\""`). Text from a client: bounded, never traps.
///
/// Pure; any thread.
public enum MpdCommandParser {
    /// MPD's own limit on arguments (`COMMAND_ARGV_MAX`).
    public static let maximumArguments = 16
    /// The longest command name (MPD's longest is 21 characters).
    public static let maximumNameLength = 32

    /// The command on `line` (without its line break). - Throws: ``MpdError`` (`.unknown` for a line with
    /// no command name, `.argument` for bad quoting or too many arguments); its message names what is wrong.
    public static func parse(_ line: String) throws(MpdError) -> MpdCommand {
        var scalars = Substring(line).unicodeScalars[...]
        skipBlanks(&scalars)
        var name = ""
        while let scalar = scalars.first, isNameCharacter(scalar) {
            guard name.unicodeScalars.count < maximumNameLength else { throw MpdError(.unknown, "command name too long") }
            name.unicodeScalars.append(scalar)
            scalars.removeFirst()
        }
        guard !name.isEmpty else { throw MpdError(.unknown, "No command given") }
        if let scalar = scalars.first, !isBlank(scalar) {
            throw MpdError(.unknown, "Invalid character in command name")
        }
        var arguments: [String] = []
        while true {
            skipBlanks(&scalars)
            guard let first = scalars.first else { break }
            guard arguments.count < maximumArguments else { throw MpdError(.argument, "Too many arguments") }
            if first == "\"" {
                scalars.removeFirst()
                arguments.append(try quoted(&scalars))
            } else {
                var word = ""
                while let scalar = scalars.first, !isBlank(scalar) {
                    guard scalar != "\"" else { throw MpdError(.argument, "Invalid unquoted character") }
                    word.unicodeScalars.append(scalar)
                    scalars.removeFirst()
                }
                arguments.append(word)
            }
        }
        return MpdCommand(name: name, arguments: arguments)
    }

    /// The rest of a quoted argument, after its opening quote, up to and past its closing quote.
    private static func quoted(_ scalars: inout Substring.UnicodeScalarView.SubSequence) throws(MpdError) -> String {
        var text = ""
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\"":
                if let next = scalars.first, !isBlank(next) { throw MpdError(.argument, "Space expected after closing '\"'") }
                return text
            case "\\":
                guard let escaped = scalars.popFirst() else { throw MpdError(.argument, "Missing closing '\"'") }
                text.unicodeScalars.append(escaped)
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        throw MpdError(.argument, "Missing closing '\"'")
    }

    private static func skipBlanks(_ scalars: inout Substring.UnicodeScalarView.SubSequence) {
        while let scalar = scalars.first, isBlank(scalar) { scalars.removeFirst() }
    }

    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\r"
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
    }
}
