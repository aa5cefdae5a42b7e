// swift-tools-version: 6.0
// An app that embeds droprules: its model (WeekModel), a SwiftUI adapter (WeekDropDelegate,
// compiled only where SwiftUI exists) and a command-line demo that drives the model as a
// UI would. It depends on the droprules library by path, as an app in the same
// repository would.
import PackageDescription

let package = Package(
  name: "embedding",
  platforms: [.macOS(.v13), .iOS(.v16)],
  dependencies: [
    .package(name: "droprules", path: "../..")
  ],
  targets: [
    .target(name: "WeekModel", dependencies: [.product(name: "DropRules", package: "droprules")]),
    .target(name: "WeekDropDelegate", dependencies: ["WeekModel"]),
    .executableTarget(name: "week-demo", dependencies: ["WeekModel"]),
  ]
)
