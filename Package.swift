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
    // reference and discovery of rule files. Every target declares each module it imports,
    // those that DropRules re-exports for apps (the model, the runtime's limits) included.
    .target(name: "DropRulesTools", dependencies: ["DropRules", "DropRulesModel", "DropRulesLua"]),
    .target(
      name: "DropRulesTesting",
      dependencies: ["DropRules", "DropRulesModel", "DropRulesLua", "DropRulesTools"],
      resources: [.embedInCode("Resources/testing.lua"), .embedInCode("Resources/busted.lua")]
    ),
    .target(
      name: "DropRulesWeb",
      dependencies: ["DropRules", "DropRulesModel", "DropRulesTools"],
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
        "DropRules", "DropRulesModel", "DropRulesTools", "DropRulesWeb",
        .product(name: "FlyingFox", package: "FlyingFox"),
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ]
    ),
    .executableTarget(
      name: "droprules",
      dependencies: [
        "DropRules",
        "DropRulesModel",
        "DropRulesLua",
        "DropRulesTools",
        "DropRulesTesting",
        "DropRulesWeb",
        "DropRulesPlayground",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // What the test targets share (a temporary folder, small boards; running a Lua
    // snippet; a host with rules loaded); never shipped. The model's tests link no Lua.
    .target(name: "DropRulesTestSupport", dependencies: ["DropRulesModel"], path: "Tests/DropRulesTestSupport"),
    .target(
      name: "DropRulesLuaTestSupport", dependencies: ["DropRulesLua", "CLua"], path: "Tests/DropRulesLuaTestSupport"
    ),
    .target(
      name: "DropRulesHostTestSupport",
      dependencies: ["DropRules", "DropRulesModel", "DropRulesLua", "DropRulesTestSupport"],
      path: "Tests/DropRulesHostTestSupport"
    ),
    // Tests follow the layers: each module's tests depend on it and what lies below it.
    .testTarget(name: "DropRulesModelTests", dependencies: ["DropRulesModel", "DropRulesTestSupport"]),
    .testTarget(
      name: "DropRulesLuaTests", dependencies: ["DropRulesLua", "DropRulesTestSupport", "DropRulesLuaTestSupport"]),
    // The rule binding: host objects, rule files, the host.
    .testTarget(
      name: "DropRulesTests",
      dependencies: [
        "DropRules", "DropRulesModel", "DropRulesLua", "DropRulesTestSupport", "DropRulesLuaTestSupport",
        "DropRulesHostTestSupport",
      ]
    ),
    // Scenario files, the host protocol, the API reference.
    .testTarget(
      name: "DropRulesToolsTests",
      dependencies: [
        "DropRulesTools", "DropRules", "DropRulesModel", "DropRulesLua", "DropRulesTestSupport",
        "DropRulesLuaTestSupport", "DropRulesHostTestSupport",
      ]
    ),
    // `droprules test`, fuzzing, decision tables, and discovery as the test runner uses it.
    .testTarget(
      name: "DropRulesTestingTests",
      dependencies: [
        "DropRulesTesting", "DropRulesTools", "DropRules", "DropRulesModel", "DropRulesLua", "DropRulesTestSupport",
        "DropRulesLuaTestSupport", "DropRulesHostTestSupport",
      ]
    ),
    .testTarget(name: "DropRulesWebTests", dependencies: ["DropRulesWeb", "DropRulesTools", "DropRules"]),
    .testTarget(
      name: "DropRulesPlaygroundTests",
      dependencies: [
        "DropRulesPlayground", "DropRulesTools", "DropRules", "DropRulesTestSupport",
        .product(name: "FlyingFox", package: "FlyingFox"), .product(name: "FlyingSocks", package: "FlyingFox"),
      ]
    ),
    .testTarget(
      name: "DropRulesCLITests",
      dependencies: [
        "droprules", "DropRulesTestSupport",
        // Worker processes are this binary: the library's isolation is tested from here.
        "DropRules", "DropRulesModel", "DropRulesLua", "DropRulesHostTestSupport",
      ],
      // The help texts the tests compare with, read from the source tree.
      exclude: ["Help"]),
  ],
  swiftLanguageModes: [.v6]
)
