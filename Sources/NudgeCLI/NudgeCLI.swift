import Foundation

public enum NudgeCLI {
    public static func main() -> Int32 { 0 }
}
