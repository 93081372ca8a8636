// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "sitegen",
    products: [
        .executable(name: "sitegen", targets: ["sitegen"]),
        .executable(name: "sitegen-import", targets: ["sitegen-import"]),
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
        .target(name: "CPlatform"),
        // libvips, opened when a site has photos to make: a sitegen without it still builds
        // a site without them (Sources/CVips/VipsFunctions.h).
        .target(name: "CVips", linkerSettings: [.linkedLibrary("dl")]),
        // libqrencode, opened when a site has posters to make (Sources/CQRCode/QRFunctions.h).
        .target(name: "CQRCode", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CLeaflet"),
        .plugin(name: "BuildInfo", capability: .buildTool()),
        .target(name: "SitegenBuildInfo", plugins: ["BuildInfo"]),
        .target(name: "SitegenBytes"),
        // The lock shared values are kept behind, which ThreadSanitizer sees taken.
        .target(name: "SitegenLocking"),
        .target(name: "SitegenSupport", dependencies: ["SitegenBytes", "SitegenLocking"]),
        // What differs between systems (Linux's own calls, the C library, watching folders).
        .target(name: "SitegenPlatform", dependencies: ["CPlatform"]),
        .target(name: "SitegenMustache", dependencies: ["SitegenBytes", "SitegenLocking"]),
        .target(name: "SitegenMarkdown", dependencies: ["CCMark", "SitegenSupport"]),
        .target(name: "SitegenYAML", dependencies: ["CYAML", "SitegenBytes", "SitegenSupport"]),
        // Photos made into published sizes and formats; knows nothing of sites.
        .target(name: "SitegenImages", dependencies: ["CVips"]),
        // QR codes drawn as SVG; knows nothing of sites.
        .target(name: "SitegenQRCode", dependencies: ["CQRCode", "SitegenSupport"]),
        // The content model: values, readers and models of a site's files; no cache, no
        // files written, no process-wide state.
        .target(name: "SitegenContent", dependencies: ["SitegenImages", "SitegenSupport", "SitegenMarkdown", "SitegenYAML"]),
        // The files of a build: the source walker and readers, staging, atomic writes.
        .target(name: "SitegenFiles", dependencies: ["SitegenLocking", "SitegenPlatform", "SitegenSupport"]),
        // The build: its stages (load, parse, validate, index, render, write), the site's
        // index, views, outputs, the theme, homework and the check. It asks what it may reuse
        // through one protocol (BuildReuse), and builds whole without an answer.
        .target(
            name: "SitegenPipeline",
            dependencies: ["CLeaflet", "SitegenContent", "SitegenFiles", "SitegenImages", "SitegenLocking", "SitegenQRCode", "SitegenPlatform", "SitegenSupport", "SitegenMustache", "SitegenMarkdown", "SitegenYAML"]
        ),
        // What a build reuses of the last: the build cache and its model store, page
        // fingerprints, and the server's warm rebuilds, answering the pipeline's BuildReuse.
        .target(name: "SitegenIncremental", dependencies: ["SitegenContent", "SitegenFiles", "SitegenImages", "SitegenLocking", "SitegenPipeline", "SitegenPlatform", "SitegenSupport"]),
        // `sitegen init` and `sitegen new`: the starter site and new content files.
        .target(name: "SitegenScaffold", dependencies: ["SitegenContent", "SitegenMustache", "SitegenSupport", "SitegenYAML"]),
        .target(name: "SitegenServer", dependencies: ["SitegenLocking", "SitegenPlatform", "SitegenSupport"]),
        // `sitegen import`: teachers' feeds read over HTTP (URLSession) and XML (XMLParser)
        // into assignment files. Foundation's networking and XML link libcurl and libxml2,
        // so this lives in an executable of its own, `sitegen-import`: sitegen itself links
        // nothing but the C library.
        .target(name: "SitegenImport", dependencies: ["SitegenContent", "SitegenFiles", "SitegenSupport", "SitegenYAML"]),
        .target(name: "SitegenCLI", dependencies: ["SitegenBuildInfo", "SitegenLocking", "SitegenPlatform", "SitegenPipeline", "SitegenIncremental", "SitegenMustache", "SitegenScaffold", "SitegenSupport", "SitegenServer"]),
        .executableTarget(name: "sitegen", dependencies: ["SitegenCLI"]),
        .executableTarget(name: "sitegen-import", dependencies: ["SitegenBuildInfo", "SitegenImport"]),
        .executableTarget(
            name: "sitegen-bench",
            dependencies: ["SitegenMustache"],
            path: "Benchmarks/MustacheBench"
        ),
        // The fuzz targets (CONTRIBUTING.md#fuzzing-and-sanitizers): an executable for libFuzzer, built by `make fuzz`
        // with `-sanitize=fuzzer,address`; `swift build` makes a stub that says so.
        .executableTarget(
            name: "sitegen-fuzz",
            dependencies: ["SitegenContent", "SitegenIncremental", "SitegenMarkdown", "SitegenMustache", "SitegenPipeline", "SitegenServer", "SitegenSupport", "SitegenYAML"],
            path: "Fuzz/sitegen-fuzz"
        ),
        // What the test targets share: a seeded random number generator.
        .target(name: "SitegenTestSupport", path: "Tests/Support"),
        // A small site's articles and index, for the tests of the pipeline and of reuse.
        .target(name: "SitegenSiteFixtures", dependencies: ["SitegenContent", "SitegenPipeline", "SitegenYAML"], path: "Tests/SiteFixtures"),
        .testTarget(name: "SitegenMustacheTests", dependencies: ["SitegenMustache", "SitegenTestSupport"]),
        .testTarget(name: "SitegenYAMLTests", dependencies: ["SitegenYAML", "SitegenSupport"]),
        .testTarget(name: "SitegenMarkdownTests", dependencies: ["SitegenMarkdown", "SitegenSupport"]),
        .testTarget(name: "SitegenImagesTests", dependencies: ["SitegenImages"]),
        .testTarget(name: "SitegenQRCodeTests", dependencies: ["SitegenQRCode"]),
        .testTarget(name: "SitegenImportTests", dependencies: ["SitegenImport", "SitegenContent", "SitegenPipeline", "SitegenTestSupport"]),
        .testTarget(name: "SitegenContentTests", dependencies: ["SitegenContent", "SitegenSupport", "SitegenYAML", "SitegenTestSupport"]),
        .testTarget(name: "SitegenPipelineTests", dependencies: ["SitegenPlatform", "SitegenContent", "SitegenFiles", "SitegenPipeline", "SitegenMustache", "SitegenSupport", "SitegenYAML", "SitegenSiteFixtures", "SitegenTestSupport"]),
        .testTarget(name: "SitegenIncrementalTests", dependencies: ["SitegenContent", "SitegenFiles", "SitegenImages", "SitegenIncremental", "SitegenPipeline", "SitegenSiteFixtures", "SitegenSupport", "SitegenTestSupport", "SitegenYAML"]),
        .testTarget(name: "SitegenFilesTests", dependencies: ["SitegenFiles", "SitegenPlatform", "SitegenSupport", "SitegenTestSupport"]),
        .testTarget(name: "SitegenPlatformTests", dependencies: ["SitegenPlatform", "SitegenTestSupport"]),
        .testTarget(name: "SitegenCLITests", dependencies: ["SitegenPlatform", "SitegenCLI", "SitegenContent", "SitegenFiles", "SitegenPipeline", "SitegenIncremental", "SitegenQRCode", "SitegenScaffold", "SitegenServer", "SitegenSupport", "SitegenTestSupport"]),
    ]
)

// A generic type the code names (a dictionary of some key, an array of some struct) is made
// by the Swift runtime the first time it is used, from its mangled name by default: the name
// is decoded and each of its protocol requirements looked up among all of the binary's
// conformance records. An accessor function for each type instead pays where a build uses
// hundreds of such types once each, as a rebuild after an edit does (the measurements are in
// docs/internals/performance-log.md): the targets a build runs through, but those of the
// SitegenMustache library, since a package that depends on a library cannot build targets
// with unsafe flags.
let buildPathTargets: Set<String> = ["SitegenImages", "SitegenSupport", "SitegenPlatform", "SitegenYAML", "SitegenMarkdown", "SitegenContent", "SitegenFiles", "SitegenPipeline", "SitegenIncremental", "SitegenCLI", "sitegen"]
for target in package.targets where buildPathTargets.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])]
}
