// swift-tools-version:6.0
// Benchmarks live in their own package so they never slow the main build or its tests.
import PackageDescription

let package = Package(
  name: "DropRulesBenchmarks",
  dependencies: [.package(name: "droprules", path: "..")],
  targets: [
    .executableTarget(
      name: "DropRulesBenchmarks",
      dependencies: [.product(name: "DropRules", package: "droprules")]
    )
  ],
  swiftLanguageModes: [.v6]
)
