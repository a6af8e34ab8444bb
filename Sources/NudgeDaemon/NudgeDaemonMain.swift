/// The `nudged` program.
public enum NudgeDaemonMain {
    public static func run() -> Int32 { 1 }
}
