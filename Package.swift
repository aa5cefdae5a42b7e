// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "droprules",
  products: [
    .library(name: "DropRules", targets: ["DropRules"]),
    .library(name: "DropRulesTools", targets: ["DropRulesTools"]),
    .library(name: "DropRulesTesting", targets: ["DropRulesTesting"]),
    .library(name: "DropRulesWeb", targets: ["DropRulesWeb"]),
    .executable(name: "droprules", targets: ["droprules"]),
  ],
  // Exact versions: a clone resolves what CI built, and Package.resolved (which would
  // record this machine's mirror revisions, not the public ones) stays out of git.
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
  ],
  targets: [
    .systemLibrary(
      name: "CLua",
      pkgConfig: "lua5.4",
      // Debian's lua5.4.pc; Homebrew's lua installs lua5.4.pc beside lua.pc (untested here).
      providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]
    ),
    // droprules' own C: a regular target, so the compiler warns (and CI fails) on it.
    .target(
      name: "CLuaHost",
      dependencies: ["CLua"],
      cSettings: [.unsafeFlags(["-Wall", "-Wextra", "-Werror"])]
    ),
    // The layers, bottom up; the compiler refuses an upward import.
    // The drag model and engine: board, transactions, negotiation, hit-testing, trace. No Lua.
    .target(name: "DropRulesModel"),
    // A sandboxed Lua 5.4 runtime with limits. Knows nothing of drops.
    .target(
      name: "DropRulesLua",
      dependencies: ["CLua", "CLuaHost"],
      resources: [.embedInCode("Resources/sandbox.lua")]
    ),
    // Rule files bound to the engine: host objects, rule loading, the embedding API.
    .target(
      name: "DropRules",
      dependencies: ["DropRulesModel", "DropRulesLua"],
      resources: [.embedInCode("Rules/Resources/api.lua")]
    ),
    // Tooling outside the embeddable core: scenario files, the host protocol, the API
    // reference and discovery of rule files.
    .target(name: "DropRulesTools", dependencies: ["DropRules"]),
    .target(
      name: "DropRulesTesting",
      dependencies: ["DropRules", "DropRulesTools"],
      resources: [.embedInCode("Resources/testing.lua")]
    ),
    .target(
      name: "DropRulesWeb",
      dependencies: ["DropRules", "DropRulesTools"],
      resources: [
        .embedInCode("Resources/board.css"), .embedInCode("Resources/board.js"),
        .embedInCode("Resources/replay.html"), .embedInCode("Resources/replay.js"),
        .embedInCode("Resources/playground.html"), .embedInCode("Resources/playground.js"),
        .embedInCode("Resources/playground-keys.js"),
      ]
    ),
    .target(
      name: "DropRulesPlayground",
      dependencies: [
        "DropRules", "DropRulesTools", "DropRulesWeb", .product(name: "FlyingFox", package: "FlyingFox"),
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ]
    ),
    .executableTarget(
      name: "droprules",
      dependencies: [
        "DropRules",
        "DropRulesTools",
        "DropRulesTesting",
        "DropRulesWeb",
        "DropRulesPlayground",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // What the test targets share (a temporary folder, small boards; running a Lua
    // snippet); never shipped. The model's tests link no Lua.
    .target(name: "DropRulesTestSupport", dependencies: ["DropRulesModel"], path: "Tests/DropRulesTestSupport"),
    .target(
      name: "DropRulesLuaTestSupport", dependencies: ["DropRulesLua", "CLua"], path: "Tests/DropRulesLuaTestSupport"
    ),
    .testTarget(name: "DropRulesModelTests", dependencies: ["DropRulesModel", "DropRulesTestSupport"]),
    .testTarget(
      name: "DropRulesLuaTests", dependencies: ["DropRulesLua", "DropRulesTestSupport", "DropRulesLuaTestSupport"]),
    .testTarget(
      name: "DropRulesTests",
      dependencies: [
        "DropRules", "DropRulesTools", "DropRulesTesting", "DropRulesTestSupport", "DropRulesLuaTestSupport",
      ]
    ),
    .testTarget(name: "DropRulesWebTests", dependencies: ["DropRulesWeb", "DropRulesTools"]),
    .testTarget(
      name: "DropRulesPlaygroundTests",
      dependencies: [
        "DropRulesPlayground", "DropRulesTools", "DropRulesTestSupport",
        .product(name: "FlyingFox", package: "FlyingFox"), .product(name: "FlyingSocks", package: "FlyingFox"),
      ]
    ),
    .testTarget(name: "DropRulesCLITests", dependencies: ["droprules", "DropRulesTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
