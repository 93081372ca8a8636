import Foundation
import SitegenContent
@testable import SitegenIncremental
import SitegenMarkdown
import SitegenMustache
import SitegenPipeline
@testable import SitegenServer
import SitegenSupport
@testable import SitegenYAML

/// What each fuzz target does with one input. Each must return for every input, without
/// a crash, a sanitizer report or a stall; a differential target also stops the run
/// (`fatalError`) when two readers of one input disagree.
enum FuzzTargets {
    static let all: [String: @Sendable ([UInt8]) -> Void] = [
        "yaml": yaml,
        "markdown": markdown,
        "mustache": mustache,
        "http": http,
        "cache": cache,
        "image": image,
    ]

    /// A content file's front matter, split off and read; where the fast reader for flat
    /// front matter answers, libyaml must answer the same.
    static func yaml(_ input: [UInt8]) {
        guard let document = try? FrontMatter.split(input, path: "fuzz.md") else { return }
        let text = document.frontMatter
        let firstLine = document.frontMatterFirstLine
        _ = try? YAMLReader.read(text, path: "fuzz.md", firstLine: firstLine)
        guard let flat = FlatMappingReader.read(text, path: "fuzz.md", firstLine: firstLine) else { return }
        let full: YAMLNode?
        do {
            full = try YAMLReader.readWithLibYAML(text, path: "fuzz.md", firstLine: firstLine)
        } catch {
            fatalError("the flat reader read what libyaml refuses (\(error)): \(String(decoding: text, as: UTF8.self).debugDescription)")
        }
        guard let full, canonical(flat) == canonical(full) else {
            fatalError("the flat reader and libyaml differ:\n\(canonical(flat))\n\(full.map(canonical) ?? "nil")\nfor \(String(decoding: text, as: UTF8.self).debugDescription)")
        }
    }

    /// A node's values, styles and places, in one text to compare.
    static func canonical(_ node: YAMLNode) -> String {
        let place = "@\(node.location.line):\(node.location.column)"
        switch node.value {
        case .scalar(let scalar):
            return "\(scalar.style == .plain ? "plain" : "quoted")\(scalar.text.debugDescription)\(place)"
        case .sequence(let items):
            return "[" + items.map(canonical).joined(separator: ", ") + "]" + place
        case .mapping(let pairs):
            return "{" + pairs.map { "\($0.key.debugDescription)@\($0.keyLocation.line):\($0.keyLocation.column): \(canonical($0.value))" }.joined(separator: ", ") + "}" + place
        }
    }

    /// A body through the limits and, when they let it, cmark and the wrapper's walk of
    /// its tree; the first byte picks the options.
    static func markdown(_ input: [UInt8]) {
        guard let flags = input.first else { return }
        let body = Array(input.dropFirst())
        guard MarkdownLimits.refusal(of: body) == nil else { return }
        let options = Markdown.Options(allowsRawHTML: flags & 1 != 0, smartPunctuation: flags & 2 != 0, checksUTF8: true, splitsAtImages: flags & 4 != 0)
        _ = Markdown.render(body, options: options, includePlainText: flags & 8 != 0)
    }

    /// A template and a partial (split at the first zero byte), compiled and rendered
    /// with data of every kind; the template may include itself.
    static func mustache(_ input: [UInt8]) {
        let split = input.firstIndex(of: 0) ?? input.count
        let source = String(decoding: input[..<split], as: UTF8.self)
        let partial = String(decoding: input[min(split + 1, input.count)...], as: UTF8.self)
        guard let template = try? MustacheTemplate(name: "t", source: source) else { return }
        var library = MustacheLibrary(templates: [template])
        if let included = try? MustacheTemplate(name: "p", source: partial) { library.add(included) }
        let data: MustacheValue = ["a": [1, ["b": true, "c": "<x>"], "s"], "b": ["a": "x", "p": "p"], "t": true, "n": 2.5, "v": "p", "e": []]
        _ = try? library.render(template, with: data)
    }

    /// A request head, as the server reads it.
    static func http(_ input: [UInt8]) {
        _ = RequestHead.parse(input, limits: HTTPServer.Limits())
    }

    /// A build cache's bytes (after the format's name), a stored model, or the homework's
    /// keys (first byte 0xFF; read, then asked what an edit's pages are made of), decoded:
    /// a damaged one must be refused, never crash the build.
    static func cache(_ input: [UInt8]) {
        guard let kind = input.first else { return }
        let bytes = Array(input.dropFirst())
        if kind == 0xFF {
            guard let keys = try? BinaryReader.reading(bytes, { reader throws(BinaryReader.Corrupt) in try HomeworkKeys(from: &reader) }) else { return }
            let moment = BuildMoment(date: CalendarDate(year: 2026, month: 11, day: 25), time: TimeOfDay(hour: 15, minute: 0))
            let outline = keys.outline(site: homeworkSite, moment: moment, includeDrafts: false)
            _ = keys.pick(showing: Array(keys.rows.prefix(2)), outline: outline, site: homeworkSite, moment: moment, includeDrafts: false)
        } else if kind & 1 == 0 {
            var framed = BinaryWriter()
            framed.string(BuildCache.format)
            let whole = framed.bytes + bytes
            _ = try? BinaryReader.reading(whole) { reader throws(BinaryReader.Corrupt) in try BuildCache.decode(&reader, checksum: 0) }
        } else {
            _ = BuildCache.ContentEntry.decode(bytes[...])
        }
    }

    private static let homeworkSite = Site(node: try! YAMLReader.read(Array("title: School\nhomework:\n  grades: [6, 7, 8]\n".utf8), path: "Content/site.yaml"),
                                           log: DiagnosticLog())

    /// An image file's first bytes, as the build reads a photo's format and size.
    static func image(_ input: [UInt8]) {
        _ = ImageSize.read(input, isWhole: true)
        _ = ImageSize.read(input, isWhole: false)
        _ = ImageSize.formatName(of: input)
        _ = PhotoFile.format(of: input)
        _ = PhotoFile(header: input, width: 1, height: 2)
        _ = ImageSize.jpegOrientation(input)
    }
}
