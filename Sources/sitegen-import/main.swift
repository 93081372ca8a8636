import Foundation
import SitegenBuildInfo
import SitegenImport

// `sitegen import`, run by sitegen as this program of its own: Foundation's HTTP and XML
// link libcurl and libxml2, which sitegen itself does without (Package.swift says more).
// sitegen checks the arguments against the command's help before it runs this.

var options = ImportRun.Options(siteFolder: URL(fileURLWithPath: "."))
options.userAgent = "sitegen/\(BuildInfo.version) (+\(BuildInfo.repository.map { "https://github.com/\($0)" } ?? "https://github.com/sitegen"))"
var arguments = CommandLine.arguments.dropFirst()
@MainActor func value(after option: String) -> String {
    guard let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("sitegen import: error: \(option) needs a value\n".utf8))
        exit(2)
    }
    return value
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--source": options.siteFolder = URL(fileURLWithPath: value(after: argument))
    case "--teacher": options.teachers.append(value(after: argument))
    case "--cache-dir": options.cacheFolder = value(after: argument)
    case "--update": options.update = true
    case "--dry-run": options.dryRun = true
    default:
        FileHandle.standardError.write(Data("sitegen import: error: unknown option '\(argument)'\n".utf8))
        exit(2)
    }
}
let report = ImportRun.run(options)
for line in report.lines { print(line) }
for problem in report.problems { FileHandle.standardError.write(Data((problem + "\n").utf8)) }
exit(report.problems.isEmpty ? 0 : 1)
