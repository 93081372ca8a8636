// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "sitegen",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "sitegen", targets: ["sitegen"]),
        .library(name: "SitegenMustache", targets: ["SitegenMustache"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCMark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .systemLibrary(name: "CFileSystem"),
        .systemLibrary(name: "CMalloc"),
        .target(name: "SitegenBytes"),
        .target(name: "SitegenSupport", dependencies: ["SitegenBytes"]),
        .target(name: "SitegenMustache", dependencies: ["SitegenBytes"]),
        .target(name: "SitegenMarkdown", dependencies: ["CCMark", "SitegenSupport"]),
        .target(name: "SitegenYAML", dependencies: ["CYAML", "SitegenBytes", "SitegenSupport"]),
        .target(
            name: "SitegenCore",
            dependencies: ["CFileSystem", "SitegenSupport", "SitegenMustache", "SitegenMarkdown", "SitegenYAML"]
        ),
        .target(name: "SitegenServer", dependencies: ["SitegenSupport"]),
        .target(name: "SitegenCLI", dependencies: ["CMalloc", "SitegenCore", "SitegenMustache", "SitegenSupport", "SitegenServer"]),
        .executableTarget(name: "sitegen", dependencies: ["SitegenCLI"]),
        .executableTarget(
            name: "sitegen-bench",
            dependencies: ["SitegenMustache"],
            path: "Benchmarks/MustacheBench"
        ),
        .testTarget(name: "SitegenMustacheTests", dependencies: ["SitegenMustache"]),
        .testTarget(name: "SitegenYAMLTests", dependencies: ["SitegenYAML", "SitegenSupport"]),
        .testTarget(name: "SitegenMarkdownTests", dependencies: ["SitegenMarkdown", "SitegenSupport"]),
        .testTarget(name: "SitegenCoreTests", dependencies: ["CFileSystem", "SitegenCore", "SitegenMustache", "SitegenSupport", "SitegenYAML"]),
        .testTarget(name: "SitegenCLITests", dependencies: ["SitegenCLI", "SitegenCore", "SitegenServer"]),
    ]
)
