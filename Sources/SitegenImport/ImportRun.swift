import Foundation
import SitegenContent
import SitegenFiles
import SitegenSupport
import SitegenYAML

/// One `sitegen import`: every teacher with a `feed` of teachers.yaml (or those named), one
/// after another, each reported on its own line; a feed that fails is reported with its
/// teacher and address, and the others still import.
public struct ImportRun {
    public struct Options: Sendable {
        public var siteFolder: URL
        public var teachers: [String] = []
        public var update = false
        public var dryRun = false
        public var cacheFolder: String?
        public var userAgent = "sitegen"
        public var limits = FeedFetcher.Limits()
        public var now = Date()

        public init(siteFolder: URL) {
            self.siteFolder = siteFolder
        }
    }

    public struct Report: Sendable {
        /// What to print, line by line.
        public var lines: [String] = []
        /// Problems of the site or a feed, each a line.
        public var problems: [String] = []
        public var written = 0
    }

    public static func run(_ options: Options) -> Report {
        var report = Report()
        let log = DiagnosticLog()
        let content = options.siteFolder.appendingPathComponent("Content")
        let site = Site(node: read(content.appendingPathComponent("site.yaml"), path: "Content/site.yaml", log: log), log: log)
        let teachersNode = read(content.appendingPathComponent("teachers.yaml"), path: Teacher.path, log: log)
        let teachers = Teacher.all(from: teachersNode, site: site, log: log)
        report.problems += log.entries.filter { $0.severity == .error }.map(\.description)
        guard report.problems.isEmpty else { return report }
        for name in options.teachers where !teachers.contains(where: { $0.id == name }) {
            report.problems.append("sitegen import: error: --teacher '\(name)' is no teacher of teachers.yaml (\(teachers.map(\.id).joined(separator: ", ")))")
        }
        let chosen = teachers.filter { $0.feed != nil && (options.teachers.isEmpty || options.teachers.contains($0.id)) }
        if chosen.isEmpty, report.problems.isEmpty {
            report.lines.append("No teacher of teachers.yaml has a 'feed': give one the address of their blog's feed (docs/homework.md#importing-from-teachers-blogs)")
        }
        let importer = AssignmentImport(siteFolder: options.siteFolder, site: site, update: options.update)
        var state = ImportState(folder: options.cacheFolder ?? CacheFolder.standard, site: options.siteFolder)
        let fetcher = FeedFetcher(userAgent: options.userAgent, limits: options.limits)
        for teacher in chosen {
            let feed = teacher.feed!
            let label = "\(teacher.name) (\(feed))"
            do throws(FeedProblem) {
                guard let (data, address, validators) = try load(feed, options: options, state: state, fetcher: fetcher) else {
                    report.lines.append("\(label): not changed since the last import")
                    continue
                }
                let posts = try FeedDocument.posts(in: data, address: address)
                let actions = importer.actions(for: teacher, posts: posts, now: options.now)
                try apply(actions, options: options, label: label, report: &report)
                if !options.dryRun, let validators { state.remember(feed.description, validators) }
            } catch {
                report.problems.append("\(label): error: the feed \(error.message)")
            }
        }
        if !options.dryRun { state.save() }
        return report
    }

    /// The YAML of a settings file; a file that is not YAML is an error in `log`.
    private static func read(_ url: URL, path: String, log: DiagnosticLog) -> YAMLNode? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            return try YAMLReader.read(Array(data), path: path)
        } catch {
            log.add(error)
            return nil
        }
    }

    /// The feed's bytes, where they came from, and what to remember of the server's answer;
    /// nil when the server says nothing changed.
    private static func load(_ feed: TeacherFeed, options: Options, state: ImportState,
                             fetcher: FeedFetcher) throws(FeedProblem) -> (Data, URL?, FeedFetcher.Validators?)? {
        switch feed {
        case .file(let path):
            let url = options.siteFolder.appendingPathComponent(path)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else {
                throw FeedProblem(message: "file is missing")
            }
            if let size = attributes[.size] as? Int, size > options.limits.bytes {
                throw FeedProblem(message: "is larger than \(options.limits.bytes / 1_000_000) MB: a feed of homework is a few hundred kilobytes")
            }
            guard let data = FileManager.default.contents(atPath: url.path) else { throw FeedProblem(message: "file could not be read") }
            return (data, nil, nil)
        case .web(let address):
            guard let url = URL(string: address.text) else { throw FeedProblem(message: "address is not a URL") }
            switch try fetcher.fetch(url, validators: state.validators(address.text)) {
            case .notModified: return nil
            case .feed(let data, let final, let validators): return (data, final, validators)
            }
        }
    }

    private static func apply(_ actions: [AssignmentImport.Action], options: Options, label: String, report: inout Report) throws(FeedProblem) {
        var written: [String] = []
        for action in actions {
            let title = action.post.title.isEmpty ? action.post.id : action.post.title
            switch action.outcome {
            case .written(let path), .updated(let path):
                guard let text = action.text else { continue }
                if options.dryRun {
                    report.lines.append("Would write \(path):")
                    report.lines.append(text)
                } else {
                    let target = options.siteFolder.appendingPathComponent(path)
                    do {
                        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                        try Data(text.utf8).write(to: target, options: .atomic)
                    } catch {
                        throw FeedProblem(message: "'\(title)' could not be written to \(path): \(error.localizedDescription)")
                    }
                }
                written.append(path)
            case .changed(let path):
                report.lines.append("\(label): '\(title)' changed since it was imported into \(path); run sitegen import --update to write it again")
            case .edited(let path):
                report.lines.append("\(label): '\(title)' changed since it was imported, and \(path) was edited since: left as it is")
            case .unchanged:
                continue
            }
        }
        report.written += written.count
        let verb = options.dryRun ? "would write" : "wrote"
        if written.isEmpty {
            report.lines.append("\(label): nothing new (\(actions.count) post\(actions.count == 1 ? "" : "s"))")
        } else {
            report.lines.append("\(label): \(verb) \(written.count) of \(actions.count) post\(actions.count == 1 ? "" : "s"): " + written.joined(separator: ", "))
        }
    }
}

/// What each feed's server said last time (ETag, Last-Modified), kept in the cache
/// folder, one file per site: `<folder>/<hash of the site's folder>.import`.
struct ImportState {
    private let file: String
    private var known: [String: FeedFetcher.Validators]

    init(folder: String, site: URL) {
        file = folder + "/" + StableHash.hex(site.standardizedFileURL.path.utf8) + ".import"
        known = FileManager.default.contents(atPath: file).flatMap { try? JSONDecoder().decode([String: FeedFetcher.Validators].self, from: $0) } ?? [:]
    }

    func validators(_ address: String) -> FeedFetcher.Validators? {
        known[address]
    }

    mutating func remember(_ address: String, _ validators: FeedFetcher.Validators) {
        known[address] = validators.etag == nil && validators.lastModified == nil ? nil : validators
    }

    func save() {
        guard let data = try? JSONEncoder().encode(known) else { return }
        try? FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? data.write(to: URL(fileURLWithPath: file), options: .atomic)
    }
}
