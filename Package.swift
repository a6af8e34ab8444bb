// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Nudge",
    products: [
        .executable(name: "nudge", targets: ["nudge"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CINIH",
            pkgConfig: "inih",
            providers: [.apt(["libinih-dev"])]
        ),
        .target(name: "NudgeCore"),
        .target(name: "NudgeStore", dependencies: ["NudgeCore", "CSQLite"]),
        .target(name: "NudgeConfigFile", dependencies: ["NudgeCore", "CINIH"]),
        .target(name: "NudgeCLI", dependencies: ["NudgeCore", "NudgeStore"]),
        .executableTarget(name: "nudge", dependencies: ["NudgeCLI"]),
        .testTarget(name: "NudgeCoreTests", dependencies: ["NudgeCore"]),
        .testTarget(name: "NudgeStoreTests", dependencies: ["NudgeStore"]),
        .testTarget(name: "NudgeConfigFileTests", dependencies: ["NudgeConfigFile", "NudgeCore"]),
        .testTarget(name: "NudgeCLITests", dependencies: ["nudge", "NudgeCore"]),
    ]
)
