import Foundation
import SitegenContent
import SitegenFiles
import SitegenSupport
import SitegenYAML

/// The **parse** stage: UTF-8 checked, front matter cut from the body, YAML read.
public enum Parse {
    /// site.yaml and teachers.yaml, read and checked, and what the build makes of them.
    public static func settings(_ tree: SourceTree, request: BuildRequest, log: DiagnosticLog) -> BuildSettings {
        let errorsBefore = log.entries.count
        let siteNode = tree.siteYAML.flatMap { yaml($0, path: Site.path, log: log) }
        let siteIsReadable = log.entries.count == errorsBefore
        let teachersNode = tree.teachersYAML.flatMap { yaml($0, path: Teacher.path, log: log) }
        var site = Site(node: siteNode, isReadable: siteIsReadable, log: log)
        if let baseURL = request.baseURL {
            site.baseURL = baseURL
            site.lacksBaseURL = false
        }
        let teachers = Teacher.all(from: teachersNode, site: site, log: log)
        let moment = BuildMoment.seen(requested: request.moment, clock: request.options.clock, by: site)
        let clock = BuildMoment.schedulingInstant(requested: request.moment, clock: request.options.clock, by: site)
        let leaflet = site.leafletFolder.map { LeafletFiles.folder($0.hasPrefix("/") ? $0 : request.sourceURL.appendingPathComponent($0).path) } ?? request.options.leaflet
        let options = request.options
        let signature = [options.toolIdentity, "drafts=\(options.drafts)", "future=\(options.future)", "strict=\(options.strict)", "base=\(options.baseURL ?? "")",
                         "leaflet=\(leaflet?.signature ?? "none")"].joined(separator: "|")
        let strings = ThemeStrings.forSite(site, themeFiles: tree.themes[site.theme] ?? [:], log: log)
        return BuildSettings(site: site, teachers: teachers, moment: moment, clock: clock, strings: strings, leaflet: leaflet, signature: signature)
    }

    /// One Markdown file; its problems come back with it, so the build cache can keep them.
    public static func content(_ source: SourceTree.MarkdownFile, bytes: [UInt8]?) -> (ContentFile?, [Diagnostic]) {
        let path = "Content/" + source.contentPath
        guard let bytes else { return (nil, [.error(at: SourceLocation(path: path, line: 1, column: 1), "cannot read the file")]) }
        if let problem = UTF8Check.firstInvalidByte(in: bytes, path: path) { return (nil, [problem]) }
        do throws(Diagnostic) {
            let document = try FrontMatter.split(bytes, path: path)
            let node = try YAMLReader.read(document.frontMatter, path: path, firstLine: document.frontMatterFirstLine)
            return (ContentFile(path: path, contentPath: source.contentPath, frontMatter: node, body: document.body, bodyFirstLine: document.bodyFirstLine), [])
        } catch {
            return (nil, [error])
        }
    }

    private static func yaml(_ bytes: [UInt8], path: String, log: DiagnosticLog) -> YAMLNode? {
        if let problem = UTF8Check.firstInvalidByte(in: bytes, path: path) {
            log.add(problem)
            return nil
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        do throws(Diagnostic) {
            return try YAMLReader.read(body, path: path)
        } catch {
            log.add(error)
            return nil
        }
    }
}
