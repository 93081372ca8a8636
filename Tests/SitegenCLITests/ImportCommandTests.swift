import Foundation
import SitegenTestSupport
import Testing

/// `sitegen import` runs `sitegen-import`, installed beside it (the import itself is tested
/// in SitegenImportTests).
@Suite("sitegen import")
struct ImportCommandTests {
    static let products = Repository.root.appendingPathComponent(".build/debug")

    private func run(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complained = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: printed, as: UTF8.self), String(decoding: complained, as: UTF8.self))
    }

    @Test func importsTheFeedOfAFileOfTheSite() throws {
        let folder = TemporaryFolder()
        try folder.write("title: School\ntimezone: Asia/Hong_Kong\nhomework:\n  grades: [8]\n", to: "site/Content/site.yaml")
        try folder.write("- {id: ms-lee, name: Ms. Lee, subject: Math, grades: [8], feed: feeds/lee.xml}\n", to: "site/Content/teachers.yaml")
        let feed = try String(contentsOf: Repository.root.appendingPathComponent("Tests/Fixtures/import/wordpress.xml"), encoding: .utf8)
        try folder.write(feed, to: "site/feeds/lee.xml")
        let site = folder.url.appendingPathComponent("site").path
        let cache = ["--cache-dir", folder.url.appendingPathComponent("cache").path]
        let dry = try run(Self.products.appendingPathComponent("sitegen"), ["import", "--source", site, "--dry-run"] + cache)
        #expect(dry.status == 0, "\(dry.errors)")
        #expect(dry.output.hasPrefix("Would write Content/homework/2026-12-01-fractions-worksheet-due-thursday-"))
        let first = try run(Self.products.appendingPathComponent("sitegen"), ["import", "--source", site, "--teacher", "ms-lee"] + cache)
        #expect(first.status == 0)
        #expect(first.output.hasPrefix("Ms. Lee (feeds/lee.xml): wrote 2 of 2 posts: Content/homework/"))
        let again = try run(Self.products.appendingPathComponent("sitegen"), ["import", "--source", site] + cache)
        #expect(again.output == "Ms. Lee (feeds/lee.xml): nothing new (2 posts)\n")
        let unknown = try run(Self.products.appendingPathComponent("sitegen"), ["import", "--source", site, "--teacher", "mr-x"] + cache)
        #expect(unknown.status == 1)
        #expect(unknown.errors == "sitegen import: error: --teacher 'mr-x' is no teacher of teachers.yaml (ms-lee)\n")
    }

    @Test func saysWhatToInstallWithoutSitegenImport() throws {
        let folder = TemporaryFolder()
        let alone = folder.url.appendingPathComponent("sitegen")
        try FileManager.default.copyItem(at: Self.products.appendingPathComponent("sitegen"), to: alone)
        let result = try run(alone, ["import"])
        #expect(result.status == 2)
        #expect(result.errors == "sitegen import: error: sitegen-import must be installed beside sitegen (\(folder.url.path)), found none: install sitegen from its .deb or tarball, which hold both (docs/homework.md#importing-from-teachers-blogs)\n")
    }
}
