// swift-tools-version:6.0
// Benchmarks live in their own package so they never slow the main build or its tests.
import PackageDescription

let package = Package(
  name: "DropRulesBenchmarks",
  dependencies: [.package(name: "droprules", path: "..")],
  targets: [
    .systemLibrary(name: "CLuaSystem", pkgConfig: "lua5.4", providers: [.apt(["liblua5.4-dev"])]),
    .target(name: "LuaFloor", dependencies: ["CLuaSystem"]),
    .target(name: "AllocationCounter"),
    .executableTarget(
      name: "DropRulesBenchmarks",
      dependencies: [
        .product(name: "DropRules", package: "droprules"),
        .product(name: "DropRulesTools", package: "droprules"),
        .product(name: "DropRulesTesting", package: "droprules"),
        "LuaFloor", "AllocationCounter",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
