import Foundation
import SitegenContent
import SitegenSupport
import SitegenYAML

/// What `sitegen import` does with a teacher's posts: each new post becomes an assignment
/// file of `Content/homework/`, named for its day, its title and its id; a post imported
/// before (found by `source.id`, wherever its file is now) is never written again, unless
/// the post has changed since and `update` is given, and never over a file an author has
/// edited since import wrote it.
public struct AssignmentImport: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// A new file.
        case written(path: String)
        /// The file of a changed post, written again (`--update`).
        case updated(path: String)
        /// A post that changed since it was imported, reported only.
        case changed(path: String)
        /// A changed post whose file an author edited: left as it is.
        case edited(path: String)
        case unchanged(path: String)
    }

    public struct Action: Sendable, Equatable {
        public var post: FeedPost
        public var outcome: Outcome
        /// What is written for `written` and `updated`.
        public var text: String?
    }

    /// The files imported before, by their post's id: path relative to the site, and text.
    public var imported: [String: (path: String, text: String)]
    public let site: Site
    public let update: Bool
    public let siteFolder: URL

    /// Reads `source.id` of every assignment file under `Content/homework/` of `siteFolder`.
    public init(siteFolder: URL, site: Site, update: Bool) {
        self.site = site
        self.update = update
        self.siteFolder = siteFolder
        imported = [:]
        let homework = siteFolder.appendingPathComponent("Content/homework")
        let files = FileManager.default.enumerator(at: homework, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "md" {
            guard let data = FileManager.default.contents(atPath: file.path), let id = Self.sourceID(in: Array(data)) else { continue }
            let relative = "Content/homework/" + file.path.dropFirst(homework.path.count + 1)
            imported[id] = (relative, String(decoding: data, as: UTF8.self))
        }
    }

    /// The `source.id` of an assignment file's front matter.
    static func sourceID(in file: [UInt8]) -> String? {
        guard let document = try? FrontMatter.split(file, path: "x"), let node = try? YAMLReader.read(document.frontMatter, path: "x"),
              let source = node.mapping?.first(where: { $0.key == "source" })?.value.mapping,
              let id = source.first(where: { $0.key == "id" })?.value.scalar?.text else { return nil }
        return id
    }

    public func actions(for teacher: Teacher, posts: [FeedPost], now: Date) -> [Action] {
        var taken = Set(imported.values.map(\.path))
        return posts.map { post in
            let digest = Self.digest(of: post)
            if let (path, text) = imported[post.id] {
                if text.contains("\n  digest: \(digest)\n") { return Action(post: post, outcome: .unchanged(path: path)) }
                guard update else { return Action(post: post, outcome: .changed(path: path)) }
                guard Self.isAsWritten(text) else { return Action(post: post, outcome: .edited(path: path)) }
                return Action(post: post, outcome: .updated(path: path), text: file(for: post, teacher: teacher, now: now))
            }
            let path = newPath(for: post, teacher: teacher, now: now, taken: taken)
            taken.insert(path)
            return Action(post: post, outcome: .written(path: path), text: file(for: post, teacher: teacher, now: now))
        }
    }

    /// The day a post gives its work: its date in the site's time zone.
    func assigned(_ post: FeedPost, now: Date) -> CalendarDate {
        let date = post.published ?? post.updated ?? now
        let seconds = Int(date.timeIntervalSince1970) + site.timeZone.secondsFromGMT(for: date)
        return CalendarDate(dayNumber: seconds.floorDivided(by: 86_400))
    }

    private func newPath(for post: FeedPost, teacher: Teacher, now: Date, taken: Set<String>) -> String {
        let title = Slug(making: String(post.title.prefix(60)))?.text ?? teacher.id
        // FNV-1a's low digits differ most between ids that differ in their last characters.
        let id = String(StableHash.hex(post.id.utf8).suffix(6))
        let stem = "Content/homework/\(assigned(post, now: now))-\(title)-\(id)"
        var path = stem + ".md"
        var number = 2
        while taken.contains(path) || FileManager.default.fileExists(atPath: siteFolder.appendingPathComponent(path).path) {
            path = stem + "-\(number).md"
            number += 1
        }
        return path
    }

    /// The assignment file of a post.
    func file(for post: FeedPost, teacher: Teacher, now: Date) -> String {
        let day = assigned(post, now: now)
        let markdown = HTMLMarkdown.markdown(from: post.html, base: post.base)
        let link = post.link.flatMap(WebURL.init)
        var lines = ["---", "title: " + YAMLText.scalar(post.title.isEmpty ? teacher.subject : post.title), "teacher: \(teacher.id)", "assigned: \(day)"]
        let words = post.title + "\n" + markdown
        if let due = DueDates.find(in: words, assigned: day, calendar: site.homework.calendar) { lines.append("due: \(due)") }
        if let link { lines.append("link: " + YAMLText.scalar(link.text)) }
        lines += ["source:", "  id: " + YAMLText.scalar(post.id)]
        if let link { lines.append("  url: " + YAMLText.scalar(link.text)) }
        if let changed = post.updated ?? post.published {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = site.timeZone
            lines.append("  updated: " + YAMLText.scalar(formatter.string(from: changed)))
        }
        lines.append("  digest: \(Self.digest(of: post))")
        lines.append("---")
        var body = markdown
        if body.isEmpty, let link { body = "[\(HTMLMarkdown.escaped(post.title.isEmpty ? link.text : post.title))](\(link.text))" }
        let text = lines.joined(separator: "\n") + "\n" + body + "\n"
        return Self.signed(text)
    }

    /// `text` with `source.written`, the hash of the rest, after its digest.
    static func signed(_ text: String) -> String {
        let written = "  written: \(StableHash.hex(text.utf8))\n"
        guard let digest = text.firstMatch(of: #/\n  digest: [0-9a-f]+\n/#)?.range else { return text }
        return String(text[..<digest.upperBound]) + written + String(text[digest.upperBound...])
    }

    /// Whether a file is as import wrote it: its `source.written` is the hash of the rest.
    static func isAsWritten(_ text: String) -> Bool {
        guard let line = text.firstMatch(of: #/\n  written: ([0-9a-f]+)\n/#) else { return false }
        let rest = String(text[..<line.range.lowerBound]) + "\n" + String(text[line.range.upperBound...])
        return StableHash.hex(rest.utf8) == String(line.1)
    }

    static func digest(of post: FeedPost) -> String {
        StableHash.hex((post.title + "\u{0}" + post.html + "\u{0}" + (post.link ?? "")).utf8)
    }
}
