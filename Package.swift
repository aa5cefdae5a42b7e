// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "droprules",
  products: [
    .library(name: "DropRules", targets: ["DropRules"]),
    .library(name: "DropRulesTesting", targets: ["DropRulesTesting"]),
    .library(name: "DropRulesWeb", targets: ["DropRulesWeb"]),
    .executable(name: "droprules", targets: ["droprules"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // 0.x: a minor version may break the API, so only patches are taken.
    .package(url: "https://github.com/swhitty/FlyingFox", .upToNextMinor(from: "0.27.1")),
  ],
  targets: [
    .systemLibrary(
      name: "CLua",
      pkgConfig: "lua5.4",
      providers: [.apt(["liblua5.4-dev"])]
    ),
    // droprules' own C: a regular target, so the compiler warns (and CI fails) on it.
    .target(
      name: "CLuaHost",
      dependencies: ["CLua"],
      cSettings: [.unsafeFlags(["-Wall", "-Wextra", "-Werror"])]
    ),
    .target(
      name: "DropRules",
      dependencies: ["CLua", "CLuaHost"],
      resources: [.embedInCode("Lua/Resources/sandbox.lua"), .embedInCode("Lua/Resources/api.lua")]
    ),
    .target(
      name: "DropRulesTesting",
      dependencies: ["DropRules"],
      resources: [.embedInCode("Resources/testing.lua")]
    ),
    .target(
      name: "DropRulesWeb",
      dependencies: ["DropRules"],
      resources: [
        .embedInCode("Resources/board.css"), .embedInCode("Resources/board.js"),
        .embedInCode("Resources/replay.html"), .embedInCode("Resources/replay.js"),
        .embedInCode("Resources/playground.html"), .embedInCode("Resources/playground.js"),
      ]
    ),
    .target(
      name: "DropRulesPlayground",
      dependencies: ["DropRules", "DropRulesWeb", .product(name: "FlyingFox", package: "FlyingFox")]
    ),
    .executableTarget(
      name: "droprules",
      dependencies: [
        "DropRules",
        "DropRulesTesting",
        "DropRulesWeb",
        "DropRulesPlayground",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(name: "DropRulesTests", dependencies: ["DropRules", "DropRulesTesting"]),
    .testTarget(name: "DropRulesWebTests", dependencies: ["DropRulesWeb"]),
    .testTarget(
      name: "DropRulesPlaygroundTests",
      dependencies: ["DropRulesPlayground", .product(name: "FlyingFox", package: "FlyingFox")]
    ),
    .testTarget(name: "DropRulesCLITests", dependencies: ["droprules"]),
  ],
  swiftLanguageModes: [.v6]
)
