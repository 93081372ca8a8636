import SitegenContent
import SitegenFiles
import SitegenMustache
import SitegenSupport
import SitegenYAML

/// The words a theme prints, in the site's language: `strings/<language>.yaml` of the
/// theme (the default theme's English, Traditional Chinese for Hong Kong and Simplified
/// Chinese; a theme may add or change any), then `strings:` of site.yaml. A word missing
/// from the language's table is the English one, with a warning naming it.
public struct ThemeStrings: Sendable {
    /// The table the site's language chose: `zh-HK` for `zh-Hant-TW`, `en` for `en-GB`.
    public let language: String
    public let values: [String: String]
    /// Of every value: pages are made again when a word changes.
    public let hash: UInt64
    /// What templates see as `t`.
    public let mustacheValue: MustacheValue
    /// Each word with parts to fill in, cut into its parts once: a large site fills some
    /// in for every card and row.
    private let patterns: [String: [Part]]

    private enum Part: Sendable {
        case text(String)
        case fill(String)
    }

    public init(language: String, values: [String: String]) {
        self.language = language
        self.values = values
        var print = Fingerprint()
        for key in values.keys.sorted() {
            print.add(key)
            print.add(values[key]!)
        }
        hash = print.value
        mustacheValue = .dictionary(values.mapValues(MustacheValue.string))
        var patterns: [String: [Part]] = [:]
        for (key, value) in values where value.contains("{") {
            var parts: [Part] = []
            var rest = Substring(value)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
                parts.append(.fill(String(rest[rest.index(after: open)..<close])))
                rest = rest[rest.index(after: close)...]
            }
            if !rest.isEmpty { parts.append(.text(String(rest))) }
            patterns[key] = parts
        }
        self.patterns = patterns
    }

    public static let folder = "strings/"

    /// The word of `key`, its `{name}` parts filled in.
    public func text(_ key: String, _ fills: [String: String] = [:]) -> String {
        guard let parts = patterns[key] else { return values[key] ?? key }
        var result = ""
        for part in parts {
            switch part {
            case .text(let text): result += text
            case .fill(let name): result += fills[name] ?? "{\(name)}"
            }
        }
        return result
    }

    /// `key.one` for one, else `key.other`, with `{count}` filled in.
    public func count(_ key: String, _ count: Int, _ fills: [String: String] = [:]) -> String {
        let form = count == 1 && values[key + ".one"] != nil ? key + ".one" : key + ".other"
        return text(form, fills.merging(["count": "\(count)"]) { mine, _ in mine })
    }

    /// "Math", "Math and History", "Math, Science and History"; "數學和歷史".
    public func list(_ items: [String]) -> String {
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        default: return text("list.last", ["rest": items.dropLast().joined(separator: text("list.separator")), "last": items.last!])
        }
    }

    /// The table for `tag`: its own, else its language's usual one (Chinese written in
    /// Traditional characters for Hong Kong, Macau and Taiwan, else Simplified), else the
    /// language alone, else English.
    public static func table(for tag: String, among available: Set<String>) -> String {
        if available.contains(tag) { return tag }
        let parts = tag.split(separator: "-").map { $0.lowercased() }
        if parts.first == "zh" {
            let traditional = parts.contains("hant") || parts.contains("hk") || parts.contains("mo") || parts.contains("tw")
            let chosen = traditional ? "zh-HK" : "zh-CN"
            if available.contains(chosen) { return chosen }
        }
        if let language = parts.first, let found = available.first(where: { $0.lowercased() == language }) { return found }
        return "en"
    }
}

extension ThemeStrings {
    /// English, as the default theme has it: the words of a view made without a site.
    public static let english: ThemeStrings = {
        let path = folder + "en.yaml"
        let (tables, _) = ThemeStrings.tables(from: [(path, DefaultTheme.file(path)!, "Themes/default/" + path)], log: DiagnosticLog())
        return ThemeStrings(language: "en", values: tables["en"]?.values ?? [:])
    }()

    /// The strings of `site` with its theme's files (`files`: by path in the theme).
    public static func forSite(_ site: Site, themeFiles files: [String: [UInt8]], log: DiagnosticLog) -> ThemeStrings {
        var sources = DefaultTheme.paths.filter { $0.hasPrefix(folder) }.map { ($0, DefaultTheme.file($0)!, "Themes/default/\($0)") }
        for (path, bytes) in files where path.hasPrefix(folder) { sources.append((path, bytes, "Themes/\(site.theme)/\(path)")) }
        // Only English and the site's language are read: a build reads its tables every time.
        let chosen = table(for: site.language.text, among: Set(sources.compactMap { language(of: $0.0) }))
        let (tables, paths) = ThemeStrings.tables(from: sources.filter { [chosen, "en"].contains(language(of: $0.0)) }, log: log)
        let english = tables["en"]?.values ?? [:]
        var values = english
        if chosen != "en", let own = tables[chosen] {
            values.merge(own.values) { _, mine in mine }
            // A language with one form for every count ("{count} 篇文章") has no `.one`:
            // English's is not its.
            let oneForm = Set(english.keys.filter { $0.hasSuffix(".one") && own.values[$0] == nil && own.values[String($0.dropLast(4)) + ".other"] != nil })
            for key in oneForm { values[key] = nil }
            let missing = english.keys.filter { own.values[$0] == nil && !oneForm.contains($0) }.sorted()
            for key in missing {
                log.warning(at: SourceLocation(path: paths[chosen] ?? "Themes/\(site.theme)/\(folder)\(chosen).yaml", line: 1, column: 1),
                            "the strings of '\(chosen)' have no '\(key)': it is shown in English ('\(english[key]!)'); add it there, or to 'strings' in site.yaml")
            }
        }
        for (key, value, location) in site.strings {
            guard english[key] != nil else {
                let hint = Suggestion.closest(to: key, among: Array(english.keys)).map { "; did you mean '\($0)'?" } ?? ""
                log.warning(at: location, "'strings' has '\(key)', which no word of the theme is\(hint)")
                continue
            }
            values[key] = value
        }
        return ThemeStrings(language: chosen, values: values)
    }

    /// The language of a table's path in the theme, `strings/zh-HK.yaml`.
    private static func language(of path: String) -> String? {
        let name = path.dropFirst(folder.count)
        guard path.hasPrefix(folder), name.hasSuffix(".yaml"), !name.contains("/") else { return nil }
        return String(name.dropLast(".yaml".count))
    }

    /// Each language's table, its files merged in order (the default theme's, then the
    /// site's theme's), and the path of its last file; a file that is no mapping of text is
    /// an error at it.
    private static func tables(from sources: [(path: String, bytes: [UInt8], display: String)], log: DiagnosticLog) -> ([String: (values: [String: String], path: String)], [String: String]) {
        var tables: [String: (values: [String: String], path: String)] = [:]
        var paths: [String: String] = [:]
        for (path, bytes, display) in sources {
            guard let language = language(of: path) else { continue }
            let node: YAMLNode?
            do throws(Diagnostic) {
                node = try YAMLReader.read(bytes, path: display)
            } catch {
                log.add(error)
                continue
            }
            var values = tables[language]?.values ?? [:]
            for pair in node?.mapping ?? [] {
                guard let text = pair.value.scalar?.text, !(pair.value.scalar?.isNull ?? true) else {
                    log.error(at: pair.value.location, "'\(pair.key)' in \(display) must be text, found \(pair.value.shortDescription)")
                    continue
                }
                values[pair.key] = text
            }
            if let node, node.mapping == nil {
                log.error(at: node.location, "\(display) must be a mapping of words like 'skipToContent: Skip to content', found \(node.shortDescription)")
            }
            tables[language] = (values, display)
            paths[language] = display
        }
        return (tables, paths)
    }
}
