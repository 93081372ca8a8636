import Dispatch
import Foundation
import SitegenMustache
import SitegenSupport
import SitegenYAML

/// What `sitegen build` was asked to do.
public struct BuildOptions: Sendable {
    public var source: String
    /// Defaults to `<source>/Output`.
    public var output: String?
    /// Overrides `base_url` of site.yaml.
    public var baseURL: String?
    /// `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`; defaults to the current time in the site's zone.
    public var today: String?
    public var drafts: Bool
    public var strict: Bool
    /// Where Leaflet is looked for when site.yaml names no `map.leaflet`.
    public var leafletFolder: String

    public init(source: String = ".", output: String? = nil, baseURL: String? = nil, today: String? = nil, drafts: Bool = false, strict: Bool = false,
                leafletFolder: String = "/usr/share/javascript/leaflet") {
        self.leafletFolder = leafletFolder
        self.source = source
        self.output = output
        self.baseURL = baseURL
        self.today = today
        self.drafts = drafts
        self.strict = strict
    }
}

/// What a build did, or why it did nothing.
public struct BuildReport: Sendable {
    /// Every problem of the site, sorted by path and line.
    public var diagnostics: [Diagnostic] = []
    /// A problem with the command itself (a bad option, an output folder sitegen refuses).
    public var commandError: String?
    public var pageCount = 0
    public var fileCount = 0
    public var byteCount = 0
    /// Files the build wrote, found unchanged, and removed as no longer part of the site.
    public var writtenCount = 0
    public var unchangedCount = 0
    public var removedCount = 0
    public var outputPath = ""

    public var succeeded: Bool {
        commandError == nil && !diagnostics.contains { $0.severity == .error }
    }
}

/// The build pipeline: load → parse → validate → index → render → write. Each stage
/// takes values and returns values; nothing is written until every page is rendered,
/// so a failed build leaves the output folder as it was.
public enum SiteBuilder {
    public static func build(_ options: BuildOptions, progress: @Sendable (String) -> Void = { _ in }) -> BuildReport {
        let prepared = prepare(options, progress: progress)
        var report = prepared.report
        guard report.succeeded, let files = prepared.files, let outputURL = prepared.outputURL else { return report }
        progress("Writing")
        do {
            let result = try OutputWriter.write(files, to: outputURL)
            report.byteCount = result.bytesWritten
            report.writtenCount = result.written
            report.unchangedCount = result.unchanged
            report.removedCount = result.removed
        } catch {
            report.commandError = "cannot write \(outputURL.path): \(error)"
            return report
        }
        report.fileCount = files.count
        return report
    }

    /// Everything a build does but writing: what `sitegen check` looks at.
    struct Prepared {
        var report: BuildReport
        var outputURL: URL?
        var files: [OutputFile]?
        var index: SiteIndex?
    }

    static func prepare(_ options: BuildOptions, progress: @Sendable (String) -> Void) -> Prepared {
        var report = BuildReport()
        let sourceURL = URL(fileURLWithPath: options.source).standardizedFileURL
        let outputURL = URL(fileURLWithPath: options.output ?? sourceURL.appendingPathComponent("Output").path).standardizedFileURL
        report.outputPath = options.output ?? (options.source == "." ? "Output/" : sourceURL.appendingPathComponent("Output").path + "/")
        if let problem = OutputWriter.refusal(output: outputURL, source: sourceURL) {
            report.commandError = problem
            return Prepared(report: report)
        }
        var baseURLOverride: WebURL?
        if let text = options.baseURL {
            guard let url = WebURL(text) else {
                report.commandError = "--base-url must be an http or https URL like https://example.com/food/, found '\(text)'"
                return Prepared(report: report)
            }
            baseURLOverride = url
        }
        var requestedMoment: BuildMoment?
        if let text = options.today {
            guard let moment = BuildMoment(parsing: text) else {
                report.commandError = "--today must be a date like 2026-03-10 or a date and time like 2026-03-10T13:30, found '\(text)'"
                return Prepared(report: report)
            }
            requestedMoment = moment
        }
        guard FileManager.default.fileExists(atPath: sourceURL.appendingPathComponent("Content/site.yaml").path) else {
            report.commandError = "no site at \(options.source): expected Content/site.yaml (run 'sitegen init' to start one)"
            return Prepared(report: report)
        }

        progress("Reading")
        let tree = SourceTree.load(siteRoot: sourceURL)
        let log = DiagnosticLog()
        tree.problems.forEach(log.add)

        progress("Parsing")
        let parsed = Parse.run(tree, log: log)

        progress("Validating")
        var site = Site(node: parsed.site, isReadable: parsed.siteIsReadable, log: log)
        if let baseURLOverride {
            site.baseURL = baseURLOverride
            site.lacksBaseURL = false
        }
        let content = Validate.run(parsed, site: site, tree: tree, log: log)
        let themeLog = DiagnosticLog()
        let theme = Theme.load(from: tree.themes[site.theme] ?? [:], name: site.theme, log: themeLog)
        if site.theme != "default", tree.themes[site.theme] == nil {
            log.error(at: SourceLocation(path: Site.path, line: 1, column: 1), "theme '\(site.theme)' not found: there is no folder Themes/\(site.theme)/")
        }
        themeLog.entries.forEach(log.add)

        let leafletFolder = site.leafletFolder.map { $0.hasPrefix("/") ? $0 : sourceURL.appendingPathComponent($0).path } ?? options.leafletFolder
        let leaflet = Leaflet.load(from: leafletFolder)
        if leaflet == nil, site.leafletFolder != nil {
            log.error(at: site.leafletLocation ?? SourceLocation(path: Site.path, line: 1, column: 1), "'map.leaflet' must be a folder with leaflet.js and leaflet.css, found '\(site.leafletFolder!)'")
        }
        var themeAssets = theme?.assets ?? [:]
        for (path, bytes) in leaflet ?? [:] { themeAssets[Leaflet.outputFolder + path] = bytes }
        let assets = PublishedAssets(theme: themeAssets, minify: true)

        let moment = requestedMoment ?? BuildMoment.now(in: site.timeZone)
        let index = SiteIndex(content: content, site: site, moment: moment, includeDrafts: options.drafts, staticFiles: tree.staticFiles, themeAssets: Array(assets.files.keys), log: log)
        if leaflet == nil, site.leafletFolder == nil, index.restaurants.contains(where: \.hasCoordinates) {
            log.warning(at: SourceLocation(path: Site.path, line: 1, column: 1),
                        "Leaflet is not installed (no \(options.leafletFolder)/leaflet.js): /map/ lists the restaurants without a map; install Debian's libjs-leaflet or set map.leaflet")
        }

        report.diagnostics = finish(log, strict: options.strict)
        guard report.succeeded, let theme else { return Prepared(report: report) }

        progress("Rendering")
        let rendered: [OutputFile]
        do {
            rendered = try Render.run(index, theme: theme, leaflet: leaflet, assets: assets.paths)
        } catch {
            report.diagnostics.append(Diagnostic(error))
            return Prepared(report: report)
        }

        var files = rendered
        for path in tree.staticFiles {
            files.append(OutputFile(path: path, contents: .copy(sourceURL.appendingPathComponent("Content").appendingPathComponent(path))))
        }
        for (path, bytes) in assets.files.sorted(by: { $0.key < $1.key }) {
            files.append(OutputFile(path: path, contents: .bytes(bytes)))
        }
        report.pageCount = rendered.count
        return Prepared(report: report, outputURL: outputURL, files: files, index: index)
    }

    private static func finish(_ log: DiagnosticLog, strict: Bool) -> [Diagnostic] {
        log.entries.map { diagnostic in
            var diagnostic = diagnostic
            if strict { diagnostic.severity = .error }
            return diagnostic
        }.sorted()
    }
}

/// The build's "now": `--today` or the clock, read in the site's time zone.
struct BuildMoment: Sendable, Hashable {
    var date: CalendarDate
    var time: TimeOfDay?

    init(date: CalendarDate, time: TimeOfDay?) {
        self.date = date
        self.time = time
    }

    init?(parsing text: String) {
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard let date = CalendarDate(parsing: parts[0]), (try? date.check()) != nil else { return nil }
        var time: TimeOfDay?
        if parts.count == 2 {
            guard let parsed = TimeOfDay(parsing: parts[1]) else { return nil }
            time = parsed
        }
        self.init(date: date, time: time)
    }

    static func now(in zone: TimeZone) -> BuildMoment {
        let seconds = Int(Date().timeIntervalSince1970) + zone.secondsFromGMT()
        let day = seconds.floorDivided(by: 86_400)
        let secondOfDay = seconds - day * 86_400
        return BuildMoment(date: CalendarDate(dayNumber: day), time: TimeOfDay(hour: secondOfDay / 3600, minute: secondOfDay % 3600 / 60))
    }
}

extension Int {
    func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

extension CalendarDate {
    init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }
}

/// Runs `transform` over `items` on every core, keeping their order.
func parallelMap<Item: Sendable, Result: Sendable>(_ items: [Item], _ transform: @Sendable (Item) -> Result) -> [Result] {
    var results = [Result?](repeating: nil, count: items.count)
    results.withUnsafeMutableBufferPointer { buffer in
        nonisolated(unsafe) let slots = buffer
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            slots[index] = transform(items[index])
        }
    }
    return results.map { $0! }
}
