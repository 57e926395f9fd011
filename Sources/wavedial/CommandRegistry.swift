import ArgumentParser

/// The subcommands of `wavedial`, in the order `--help` lists them. One file a command in `Commands/`.
enum CommandRegistry {
    static let all: [ParsableCommand.Type] = [
        GPIOCommand.self,
    ]
}
