import Foundation
import SitegenContent
import SitegenFiles
import SitegenSupport

/// `sitegen check`: builds the site in memory, then verifies that every internal link,
/// image and `#fragment` of the built pages leads somewhere, reporting each broken one at
/// the Markdown that wrote it; and points out what authors tend to forget. It reads no
/// network: links to other hosts are not followed.
public enum SiteChecker {
    public struct Summary: Sendable {
        public var pages = 0
        public var links = 0
    }

    /// `photos`: the photos the site's builds made, so that a check makes only new ones.
    public static func check(_ options: BuildOptions, photos: (any PhotoStore)? = nil) -> (BuildReport, Summary) {
        let made = SiteBuilder.make(options, reuse: nil, photos: photos) { _ in }
        var report = made.report
        var summary = Summary()
        guard report.succeeded, let files = made.files, let index = made.index else { return (report, summary) }
        let site = index.site
        let output = OutputSet(files: files)
        summary.pages = output.pages.count
        var diagnostics = report.diagnostics

        var fromContent: Set<String> = []
        for (page, links) in contentLinks(index) {
            for link in links {
                fromContent.insert(link.resolved)
                summary.links += 1
                if let problem = output.problem(with: link.resolved, onPage: page, site: site, absoluteIsExternal: false) {
                    diagnostics.append(.error(at: link.location, link.written.isEmpty ? "link \(problem)" : "link to \(link.written) \(problem)"))
                }
            }
        }
        for page in output.pages.keys.sorted() {
            for url in output.links(onPage: page) where !fromContent.contains(url) {
                summary.links += 1
                // Absolute URLs in the theme's pages come from data such as a teacher's
                // blog, which may live on the same host without being part of the site.
                if let problem = output.problem(with: url, onPage: page, site: site, absoluteIsExternal: true) {
                    diagnostics.append(.error(at: SourceLocation(path: "Themes/\(site.theme)", line: 1, column: 1),
                                              "the page /\(page) has a link \(url.isEmpty ? "" : "to \(url) ")that \(problem); the link comes from the theme's templates"))
                }
            }
        }
        diagnostics += SiteBuilder.finish(advice(index), strict: options.strict)
        report.diagnostics = diagnostics.sorted()
        return (report, summary)
    }

    /// The links of each published text, with the page it is shown on.
    private static func contentLinks(_ index: SiteIndex) -> [(String, [ContentLink])] {
        var result: [(String, [ContentLink])] = []
        for article in index.articles { result.append((article.pagePath + "index.html", article.links)) }
        for page in index.pages { result.append(("\(page.slug.text)/index.html", page.links)) }
        for assignment in index.homework.assignments {
            guard let grade = assignment.grades.first else { continue }
            result.append(("homework/grade-\(grade.slug)/\(assignment.assigned)/index.html", assignment.links))
        }
        return result
    }

    /// What authors forget: a cover and a summary (warnings: cards and link previews look
    /// broken without them), a restaurant's coordinates (a note: a stall may have no fixed
    /// place, and the article is whole without its pin).
    private static func advice(_ index: SiteIndex) -> [Diagnostic] {
        var advice: [Diagnostic] = []
        for article in index.articles {
            let start = SourceLocation(path: article.sourcePath, line: 1, column: 1)
            if article.cover == nil {
                advice.append(.warning(at: start, "the article has no cover photo: its card and link previews show none; add 'cover: {src: …, alt: …}'"))
            }
            if article.summary.isEmpty {
                advice.append(.warning(at: start, "the article has no summary and no first paragraph to make one from; add 'summary: …'"))
            }
            if let restaurant = article.restaurant, !restaurant.hasCoordinates {
                let name = restaurant.name.map { "'\($0)' " } ?? ""
                advice.append(.note(at: article.restaurantLocation ?? start,
                                    "the restaurant \(name)has no coordinates, so it is not on the map; add 'lat' and 'lon'"))
            }
        }
        advice += conflictingAddresses(index)
        return advice
    }
}

extension SiteChecker {
    /// A restaurant whose articles give it different addresses (joined by an `id`, by
    /// coordinates, or by an article that gives no place), neither a part of the other: a
    /// warning at each article that differs from the newest, whose address the page shows.
    static func conflictingAddresses(_ index: SiteIndex) -> [Diagnostic] {
        let bySource = Dictionary(index.articles.map { ($0.sourcePath, $0) }, uniquingKeysWith: { first, _ in first })
        var warnings: [Diagnostic] = []
        for case .restaurant(let page) in index.plan {
            let articles = page.articles.compactMap { bySource[$0.sourcePath] }
            guard let newest = articles.first(where: { $0.restaurant?.addressWords != nil }), let shown = newest.restaurant?.addressWords else { continue }
            for article in articles where article.restaurant?.addressWords.map({ !Restaurant.sameAddress($0, shown) }) == true {
                warnings.append(.warning(at: article.restaurantLocation ?? SourceLocation(path: article.sourcePath, line: 1, column: 1),
                                         "the restaurant '\(page.entry.name)' is at '\(article.restaurant!.address!)' here and at '\(newest.restaurant!.address!)' in \(newest.sourcePath), which its page shows: give both articles one address, or each branch its own 'restaurant.id'"))
            }
        }
        return warnings
    }
}

/// The built site in memory: which paths exist and which ids each page has.
private struct OutputSet {
    public var paths: Set<String>
    public var pages: [String: [UInt8]]

    public init(files: [OutputFile]) {
        paths = Set(files.map(\.path))
        var pages: [String: [UInt8]] = [:]
        for file in files where file.path.hasSuffix(".html") {
            if case .bytes(let bytes) = file.contents { pages[file.path] = bytes }
        }
        self.pages = pages
    }

    /// Why `url`, linked from `page`, leads nowhere ("leads nowhere"); nil when it leads
    /// somewhere, or to another site.
    public func problem(with url: String, onPage page: String, site: Site, absoluteIsExternal: Bool) -> String? {
        if url.isEmpty { return "has no address" }
        var target = url
        if let schemeEnd = target.firstIndex(of: ":"), !target[..<schemeEnd].contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            guard !absoluteIsExternal, let origin = site.origin, target.lowercased().hasPrefix(origin.lowercased() + "/") else { return nil }
            target = String(target.dropFirst(origin.count))
        }
        if target.hasPrefix("//") { return nil }
        let (pathAndQuery, fragment) = target.split(at: "#")
        let (path, _) = pathAndQuery.split(at: "?")
        var targetFile = page
        if !path.isEmpty {
            let folder = page.split(separator: "/").dropLast().map { $0 + "/" }.joined()
            let absolute = path.hasPrefix("/") ? path : site.basePath + folder + path
            let base = site.basePath.split(separator: "/").joined(separator: "/")
            guard let normalized = ImageLookup.normalize(absolute), base.isEmpty || normalized == base || normalized.hasPrefix(base + "/") else {
                return "leads outside the site, which is served under \(site.basePath)"
            }
            let relative = String(normalized.dropFirst(base.count).drop { $0 == "/" }).removingPercentEncodingIfValid()
            let wantsFolder = absolute.hasSuffix("/") || relative.isEmpty
            let candidates = wantsFolder ? [relative.isEmpty ? "index.html" : relative + "/index.html"] : [relative, relative + "/index.html"]
            guard let found = candidates.first(where: paths.contains) else {
                return "leads nowhere"
            }
            targetFile = found
        }
        guard !fragment.isEmpty, let html = pages[targetFile] else { return nil }
        let id = fragment.removingPercentEncodingIfValid()
        return OutputSet.ids(in: html).contains(id) ? nil : "leads to a page with no element '#\(id)'"
    }

    /// Every `href` and `src` of a page, as written there.
    public func links(onPage page: String) -> [String] {
        guard let html = pages[page] else { return [] }
        return OutputSet.attributeValues(["href", "src"], in: html)
    }

    public static func ids(in html: [UInt8]) -> Set<String> {
        Set(attributeValues(["id"], in: html))
    }

    /// Values of double-quoted attributes: sitegen's pages always quote them so.
    public static func attributeValues(_ names: [String], in html: [UInt8]) -> [String] {
        var values: [String] = []
        let patterns = names.map { Array(" \($0)=\"".utf8) }
        var index = 0
        while index < html.count {
            var matched: Int?
            for pattern in patterns where html[index] == pattern[0] && index + pattern.count <= html.count && Array(html[index..<(index + pattern.count)]) == pattern {
                matched = pattern.count
            }
            guard let length = matched else {
                index += 1
                continue
            }
            let start = index + length
            var end = start
            while end < html.count, html[end] != UInt8(ascii: "\"") { end += 1 }
            values.append(String(decoding: html[start..<end], as: UTF8.self).replacingOccurrences(of: "&amp;", with: "&"))
            index = end
        }
        return values
    }
}

extension String {
    fileprivate func split(at separator: Character) -> (String, String) {
        guard let index = firstIndex(of: separator) else { return (self, "") }
        return (String(self[..<index]), String(self[self.index(after: index)...]))
    }
}
