// swift-tools-version:6.0
// The fuzzers live in their own package so they never slow the main build or its tests.
// Build and run them with Fuzz/run.sh (libFuzzer: -sanitize=fuzzer,address).
import PackageDescription

let package = Package(
  name: "DropRulesFuzz",
  dependencies: [.package(name: "droprules", path: "..")],
  targets: [
    .target(name: "FuzzDriver"),
    .executableTarget(
      name: "FuzzScenario",
      dependencies: [
        .product(name: "DropRules", package: "droprules"), .product(name: "DropRulesTools", package: "droprules"),
        "FuzzDriver",
      ]),
    .executableTarget(
      name: "FuzzBridge", dependencies: [.product(name: "DropRules", package: "droprules"), "FuzzDriver"]),
    .executableTarget(
      name: "FuzzRules", dependencies: [.product(name: "DropRules", package: "droprules"), "FuzzDriver"]),
  ],
  swiftLanguageModes: [.v6]
)
