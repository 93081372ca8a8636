import Foundation
@testable import SitegenCLI
import SitegenContent
@testable import SitegenPipeline
@testable import SitegenScaffold
import SitegenTestSupport
import Testing

/// The workflow `sitegen init` writes: a daily publish at the release time all year, the
/// sitegen action pinned to the version that wrote it, and the other services.
@Suite("The publishing workflow of sitegen init")
struct InitWorkflowTests {
    /// Zones without daylight saving, with it in either hemisphere, and half an hour off.
    static let zones = ["Asia/Hong_Kong", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "Europe/London", "UTC"]

    /// Removed when the test is done: the suite is made anew for each test.
    private let folder = TemporaryFolder()

    private func initSite(_ arguments: String...) throws -> (site: URL, console: CapturedConsole) {
        let site = folder.url.appendingPathComponent("school-\(UUID().uuidString)")
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["init", site.path] + arguments, console: console.console) == 0, "\(console.error)")
        return (site, console)
    }

    private func read(_ site: URL, _ path: String) throws -> String {
        try String(contentsOf: site.appendingPathComponent(path), encoding: .utf8)
    }

    /// The cron lines of a workflow: minute and hour, in UTC.
    private func cronLines(_ workflow: String) -> [(minute: Int, hour: Int)] {
        workflow.split(separator: "\n").compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("- cron: \"") else { return nil }
            let fields = text.dropFirst("- cron: \"".count).split(separator: " ")
            #expect(fields.count == 5 && fields[2...].joined(separator: " ") == "* * *\"", "\(text)")
            guard let minute = Int(fields[0]), let hour = Int(fields[1]) else { return nil }
            return (minute, hour)
        }
    }

    /// Every day of January and July 2027, one of the lines runs at 14:00 in the zone, and
    /// none runs before 13:00 or after 15:00 there (a run at another time rebuilds the same site).
    @Test(arguments: zones)
    func theDailyRunIsAtTheReleaseTimeAllYear(zone name: String) throws {
        let made = try initSite("--timezone", name)
        let lines = cronLines(try read(made.site, ".github/workflows/publish.yml"))
        let zone = try #require(TimeZone(identifier: name))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for month in [1, 7] {
            for day in 1...31 {
                let runs = lines.map { line -> (hour: Int, minute: Int) in
                    let utc = calendar.date(from: DateComponents(year: 2027, month: month, day: day, hour: line.hour, minute: line.minute))!
                    var local = Calendar(identifier: .gregorian)
                    local.timeZone = zone
                    let parts = local.dateComponents([.hour, .minute], from: utc)
                    return (parts.hour!, parts.minute!)
                }
                #expect(runs.contains { $0 == (14, 0) }, "\(name) 2027-\(month)-\(day): runs at \(runs)")
                #expect(runs.allSatisfy { (13...15).contains($0.hour) }, "\(name) 2027-\(month)-\(day): runs at \(runs)")
            }
        }
        let offsets = Set([1, 7].map { zone.secondsFromGMT(for: calendar.date(from: DateComponents(year: 2027, month: $0, day: 15))!) })
        #expect(lines.count == offsets.count, "one line for each offset of \(name)")
    }

    @Test func aZoneAtOneOffsetHasOneLineAndTheCommentSaysWhen() throws {
        let made = try initSite("--timezone", "Asia/Hong_Kong")
        let workflow = try read(made.site, ".github/workflows/publish.yml")
        #expect(workflow.contains("""
                # GitHub reads cron in UTC. 14:00 in Asia/Hong_Kong is:
                #   06:00 UTC when the zone is at UTC+08:00
                # Change it with timezone or homework.release_time in site.yaml.
                - cron: "0 6 * * *"
              workflow_dispatch:
            """))
        let sydney = try initSite("--timezone", "Australia/Sydney")
        #expect(try read(sydney.site, ".github/workflows/publish.yml").contains("""
                #   03:00 UTC when the zone is at UTC+11:00
                #   04:00 UTC when the zone is at UTC+10:00
            """))
    }

    /// The sitegen action is the one of this very sitegen: pinned to its commit, with its
    /// version beside it, as `sitegen --version` prints them.
    @Test func usesTheActionOfTheVersionThatWroteIt() throws {
        let made = try initSite("--timezone", "Asia/Hong_Kong")
        let workflow = try read(made.site, ".github/workflows/publish.yml")
        let uses = try #require(workflow.split(separator: "\n").first { $0.contains("uses:") && !$0.contains("actions/") })
        let version = CapturedConsole()
        #expect(version.run("--version") == 0)
        let release = Scaffold.SitegenRelease(version: CommandLineTool.version, commit: nil, repository: nil)
        if version.output.contains("(commit unknown)") {
            #expect(uses.hasSuffix("@v\(release.version) # v\(release.version)"))
        } else {
            // `sitegen 0.1.0 (commit <sha>)` or `(commit <sha>, modified)`.
            let commit = try #require(version.output.split(separator: " ").dropFirst(3).first.map { String($0.prefix(40)) })
            #expect(commit.count == 40 && commit.allSatisfy(\.isHexDigit))
            #expect(uses.hasSuffix("@\(commit) # v\(CommandLineTool.version)"), "\(uses)")
            #expect(made.console.output.contains("built from changed files of commit") == version.output.contains(", modified)"))
        }
        // A checkout without a GitHub remote knows no repository: the placeholder is marked
        // in the workflow and named in what init prints.
        if uses.contains(Scaffold.SitegenRelease.placeholderRepository) {
            #expect(workflow.contains("# Replace SITEGEN-OWNER/sitegen with the GitHub repository of the sitegen you use."))
            #expect(made.console.output.contains("replace SITEGEN-OWNER/sitegen in .github/workflows/publish.yml"))
        }
        #expect(made.console.output.contains("in its Settings → Pages set Source to \"GitHub Actions\""))
        #expect(workflow.contains("Settings → Pages, set Source to\n# \"GitHub Actions\""))
        #expect(workflow.contains("  workflow_dispatch:\n"))
    }

    @Test func pinsTheReleaseByItsCommitAndTheRepositoryItKnows() throws {
        let pinned = Scaffold.SitegenRelease(version: "1.2.3", commit: String(repeating: "ab", count: 20), repository: "Owner/SiteGen")
        #expect(pinned.actionReference == "Owner/SiteGen@\(String(repeating: "ab", count: 20))")
        #expect(pinned.image == "ghcr.io/owner/sitegen:1.2.3")
        let unknown = Scaffold.SitegenRelease(version: "1.2.3", commit: nil, repository: nil)
        #expect(unknown.actionReference == "SITEGEN-OWNER/sitegen@v1.2.3")
    }

    @Test func gitLabGetsItsOwnFileAndNoneGetsNoWorkflow() throws {
        let made = try initSite("--timezone", "Australia/Sydney", "--ci", "gitlab")
        #expect(!FileManager.default.fileExists(atPath: made.site.appendingPathComponent(".github").path))
        let gitlab = try read(made.site, ".gitlab-ci.yml")
        #expect(gitlab.contains("pages:\n"))
        #expect(gitlab.contains("    name: ghcr.io/"))
        #expect(gitlab.contains(":\(CommandLineTool.version)\n    entrypoint: [\"\"]\n"))
        #expect(gitlab.contains("sitegen build --strict --base-url \"$CI_PAGES_URL/\" --output public --cache-dir .sitegen-cache"))
        #expect(gitlab.contains("interval pattern \"0 14 * * *\" and the time zone\n# Australia/Sydney"))
        #expect(made.console.output.contains("with the interval pattern \"0 14 * * *\" and the time zone Australia/Sydney"))
        #expect(try read(made.site, "README.md").contains("`.gitlab-ci.yml` publishes it to GitLab Pages") && !(try read(made.site, "README.md")).contains("publish.yml"))

        let none = try initSite("--ci", "none")
        #expect(!FileManager.default.fileExists(atPath: none.site.appendingPathComponent(".github").path))
        #expect(!FileManager.default.fileExists(atPath: none.site.appendingPathComponent(".gitlab-ci.yml").path))
        #expect(!(try read(none.site, "README.md")).contains("publishes it"))
        #expect(none.console.output == "Wrote a new site of 9 files to \(none.site.path). Next: cd \(none.site.path) && sitegen serve\n")
    }

    @Test func anUnknownServiceIsRefusedWithASuggestion() {
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["init", folder.url.appendingPathComponent("s").path, "--ci", "gitlba"], console: console.console) == 2)
        #expect(console.error == "sitegen init: error: --ci must be one of github, gitlab, none, found 'gitlba'; did you mean 'gitlab'?\n")
    }

    @Test func theTimeZoneIsWrittenAsGiven() throws {
        let made = try initSite()
        #expect(try read(made.site, "Content/site.yaml").contains("\ntimezone: UTC\n"))
    }
}
