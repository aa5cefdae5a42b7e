// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "droprules",
  products: [
    .library(name: "DropRules", targets: ["DropRules"]),
    .library(name: "DropRulesTesting", targets: ["DropRulesTesting"]),
    .executable(name: "droprules", targets: ["droprules"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    .systemLibrary(
      name: "CLua",
      pkgConfig: "lua5.4",
      providers: [.apt(["liblua5.4-dev"])]
    ),
    .target(
      name: "DropRules",
      dependencies: ["CLua"],
      resources: [.embedInCode("Lua/Resources/sandbox.lua"), .embedInCode("Lua/Resources/api.lua")]
    ),
    .target(
      name: "DropRulesTesting",
      dependencies: ["DropRules"],
      resources: [.embedInCode("Resources/testing.lua")]
    ),
    .executableTarget(
      name: "droprules",
      dependencies: [
        "DropRules",
        "DropRulesTesting",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(name: "DropRulesTests", dependencies: ["DropRules", "DropRulesTesting"]),
    .testTarget(name: "DropRulesCLITests", dependencies: ["droprules"]),
  ],
  swiftLanguageModes: [.v6]
)
