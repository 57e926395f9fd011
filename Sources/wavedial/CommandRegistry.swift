import ArgumentParser

/// The subcommands of `wavedial`, in the order `--help` lists them. One file a command in `Commands/`.
enum CommandRegistry {
    static let all: [ParsableCommand.Type] = [
        StatusCommand.self,
        PlayCommand.self,
        PauseCommand.self,
        BackCommand.self,
        ForwardCommand.self,
        TuneCommand.self,
        VolumeCommand.self,
        MuteCommand.self,
        SleepCommand.self,
        AlarmCommand.self,
        HistoryCommand.self,
        SyncCommand.self,
        StationsCommand.self,
        DialCommand.self,
        FavoritesCommand.self,
        LocationCommand.self,
        CheckURLCommand.self,
        PlayURLCommand.self,
        LCDCommand.self,
        GPIOCommand.self,
        SimCommand.self,
        ConfigCommand.self,
        SetupCommand.self,
        DoctorCommand.self,
    ]
}
