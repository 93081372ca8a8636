import Foundation
import SitegenContent
import SitegenIncremental
import SitegenPipeline
import SitegenPlatform
import SitegenSupport

/// `sitegen build`: the site under `--source` into `--output`.
enum BuildCommand {
    static let spec = CommandSpec(
        name: "build",
        summary: "build the site into its output folder",
        usage: ["build [options]"],
        description: [
            "Builds the site into its output folder. Every problem of the site is printed as 'path:line:column: error: message'; if there is any error, the output folder is left exactly as it was and the exit status is 1.",
        ],
        options: [
            .option("--source", "DIR", .folder, "the site folder, holding Content/ and Themes/ (default: .)"),
            .option("--output", "DIR", .folder, "where the site is written (default: <source>/Output)"),
            .option("--base-url", "URL", "publish under this URL instead of site.yaml's base_url"),
            .option("--today", "DATE", "build as if it were DATE (2026-03-10, after the homework release time) or DATE and time (2026-03-10T13:30), in the site's time zone (default: now)"),
            .flag("--drafts", "include drafts (default: drafts are left out)"),
            .flag("--future", "include articles dated after the build's moment, marked as scheduled (default: each is left out until its date and time)"),
            .flag("--strict", "treat warnings as errors (default: warnings do not fail; notes never do)"),
            .flag("--quiet", short: "-q", "print problems only, no summary"),
            .flag("--timings", "print how long each stage took, and how many content files were parsed and pages rendered (the rest came from the cache)"),
            .option("--cache-dir", "DIR", .folder, "where the build cache is kept (default: ~/.cache/sitegen, or $XDG_CACHE_HOME/sitegen); it makes rebuilds fast and never changes what is built"),
            .flag("--no-cache", "neither use nor write the build cache"),
        ],
        notes: [
            "Only files whose bytes changed are written; the others keep their modification times, so hosts and rsync upload only what changed. Files the site no longer has are removed from the output folder (hidden files at its top are kept).",
        ],
        operandHint: "; the site folder is given with --source",
        run: { run($0, $1) }
    )

    /// The options `build` and `check` share, or nil after printing the problem.
    static func buildOptions(_ arguments: Arguments, console: Console) -> BuildOptions? {
        if arguments.has("--no-cache"), arguments["--cache-dir"] != nil {
            console.printError("sitegen \(arguments.command): error: --no-cache and --cache-dir contradict each other; give one of them")
            return nil
        }
        var options = BuildOptions()
        options.source = arguments["--source"] ?? "."
        options.output = arguments["--output"]
        options.baseURL = arguments["--base-url"]
        options.today = arguments["--today"]
        options.drafts = arguments.has("--drafts")
        options.future = arguments.has("--future")
        options.strict = arguments.has("--strict")
        // `check` keeps no cache of pages: with a cache, it shares the builds' photos.
        options.useCache = !arguments.has("--no-cache")
        options.cacheFolder = arguments["--cache-dir"]
        options.toolIdentity = toolIdentity
        return options
    }

    static func run(_ parsed: Arguments, _ invocation: Invocation) -> Int32 {
        let console = invocation.console
        guard var options = buildOptions(parsed, console: console) else { return 2 }
        if invocation.endsProcess {
            let kept = KeptUntilExit()
            kept.leaveToExit()
            options.keptUntilExit = kept
            Heap.growInLargeSteps()
        }
        let quiet = parsed.has("--quiet")

        let clock = ContinuousClock()
        let start = clock.now
        let showsProgress = !quiet && isatty(2) == 1 && !parsed.has("--timings")
        let stages = StageClock(clock: clock, start: start)
        let reuse = CachedBuild.reusing(options)
        // The cache read for the build is left to the exit too, with the pages.
        if invocation.endsProcess, let reuse { _ = Unmanaged.passRetained(reuse) }
        let report = SiteBuilder.build(options, reuse: reuse) { stage in
            stages.enter(stage)
            guard showsProgress, clock.now - start > .seconds(1) else { return }
            console.writeError("\r\u{1B}[K\(stage)…")
        }
        stages.enter("Done")
        if showsProgress, clock.now - start > .seconds(1) { console.writeError("\r\u{1B}[K") }
        if parsed.has("--timings") {
            console.printError(stages.summary)
            console.printError("Parsed \(grouped(report.parsedCount)) content file\(report.parsedCount == 1 ? "" : "s"), rendered \(grouped(report.renderedCount)) page\(report.renderedCount == 1 ? "" : "s"), made \(grouped(report.photosMade)) photo\(report.photosMade == 1 ? "" : "s")")
        }
        for diagnostic in report.diagnostics {
            console.printError(diagnostic.description)
        }
        if let problem = report.commandError {
            console.printError("sitegen build: error: \(problem)")
            return 2
        }
        let errors = report.diagnostics.filter { $0.severity == .error }.count
        guard errors == 0 else {
            console.printError("Build failed: \(errors) error\(errors == 1 ? "" : "s"); \(report.outputPath) was left as it was.")
            return 1
        }
        if !quiet {
            let elapsed = clock.now - start
            if report.writtenCount == 0, report.removedCount == 0, report.unchangedCount > 0, report.byteCount == 0, report.fileCount == report.unchangedCount {
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                console.print("Nothing changed: \(grouped(report.pageCount)) pages checked in \(String(format: "%.2f", seconds)) s → \(report.outputPath) (0 files written, \(grouped(report.unchangedCount)) unchanged)")
                return 0
            }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            var changes = "\(grouped(report.writtenCount)) file\(report.writtenCount == 1 ? "" : "s") written"
            if report.unchangedCount > 0 { changes += ", \(grouped(report.unchangedCount)) unchanged" }
            if report.removedCount > 0 { changes += ", \(grouped(report.removedCount)) removed" }
            console.print("Built \(grouped(report.pageCount)) page\(report.pageCount == 1 ? "" : "s") in \(String(format: "%.2f", seconds)) s → \(report.outputPath) (\(changes))")
        }
        return 0
    }

    /// The version and what tells the executable from one built from other sources: a
    /// sitegen built from other sources trusts no cache of the one before.
    static var toolIdentity: String {
        guard let identity = Executable.path.flatMap(Executable.identity(of:)) else { return CommandLineTool.version }
        return "\(CommandLineTool.version)|\(identity)"
    }

    static func grouped(_ number: Int) -> String {
        let digits = String(number)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return result
    }
}

/// When each stage of a build started, for `--timings`.
final class StageClock: @unchecked Sendable {
    private let clock: ContinuousClock
    private let lock = NSLock()
    private var marks: [(String, ContinuousClock.Instant)]

    init(clock: ContinuousClock, start: ContinuousClock.Instant) {
        self.clock = clock
        marks = [("Starting", start)]
    }

    func enter(_ stage: String) {
        lock.lock()
        marks.append((stage, clock.now))
        lock.unlock()
    }

    var summary: String {
        lock.lock()
        defer { lock.unlock() }
        var lines: [String] = []
        for (index, mark) in marks.enumerated().dropLast() {
            let duration = marks[index + 1].1 - mark.1
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            lines.append(String(format: "%-12@ %7.3f s", mark.0 as NSString, seconds))
        }
        return lines.joined(separator: "\n")
    }
}

/// `sitegen check`: the build in memory, then every internal link and what authors forget.
enum CheckCommand {
    static let spec = CommandSpec(
        name: "check",
        summary: "build in memory and check every link, image and #fragment",
        usage: ["check [options]"],
        description: [
            "Builds the site in memory (nothing is written) and checks it: every internal link, image and #fragment of the built pages must lead somewhere; a broken one is reported at the Markdown that wrote it ('Content/articles/x.md:14:9: error: link to /meals/brunch/ leads nowhere'). Also warns about what authors forget: an article without a cover, or with neither a summary nor a first paragraph to make one from; and notes a restaurant without coordinates, which is left off the map. Links to other hosts are not followed: check reads no network. The exit status is 1 when there is an error.",
        ],
        options: [
            .option("--source", "DIR", .folder, "the site folder (default: .)"),
            .option("--base-url", "URL", "check as if published under this URL"),
            .option("--today", "DATE", "check as if it were DATE or DATE and time (default: now)"),
            .flag("--drafts", "include drafts"),
            .flag("--future", "include articles dated after the check's moment"),
            .flag("--strict", "treat warnings as errors (notes never fail)"),
            .option("--cache-dir", "DIR", .folder, "where the photos made by builds are kept (default: ~/.cache/sitegen, or $XDG_CACHE_HOME/sitegen): check makes only the photos no build made, and keeps them for the next build"),
            .flag("--no-cache", "make every photo, and keep none"),
            .flag("--quiet", short: "-q", "print problems only, no summary"),
        ],
        operandHint: "; the site folder is given with --source",
        run: { run($0, console: $1.console) }
    )

    static func run(_ parsed: Arguments, console: Console) -> Int32 {
        guard let options = BuildCommand.buildOptions(parsed, console: console) else { return 2 }
        let (report, summary) = SiteChecker.check(options, photos: CachedBuild.photoStore(for: options))
        for diagnostic in report.diagnostics { console.printError(diagnostic.description) }
        if let problem = report.commandError {
            console.printError("sitegen check: error: \(problem)")
            return 2
        }
        let errors = report.diagnostics.filter { $0.severity == .error }.count
        let warnings = report.diagnostics.filter { $0.severity == .warning }.count
        let notes = report.diagnostics.count - errors - warnings
        if !parsed.has("--quiet") {
            var found = errors + warnings == 0 ? "no problems" : "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
            if notes > 0 { found += ", \(notes) note\(notes == 1 ? "" : "s")" }
            console.print("Checked \(BuildCommand.grouped(summary.pages)) pages and \(BuildCommand.grouped(summary.links)) links: \(found)")
        }
        return errors == 0 ? 0 : 1
    }
}
