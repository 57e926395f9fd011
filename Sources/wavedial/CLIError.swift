import ArgumentParser

/// A failure the CLI reports as one line on stderr, with its exit code.
struct CLIError: Error, CustomStringConvertible {
    let message: String
    let exitCode: Int32

    init(_ message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }

    var description: String { message }
}
