import Foundation
import SitegenContent
import SitegenFiles
import SitegenMustache
import SitegenSupport
import SitegenYAML

/// The theme sitegen carries in its binary, so that a site without Themes/ builds.
public enum DefaultTheme {
    public static func file(_ path: String) -> [UInt8]? {
        if let text = textFiles[path] { return Array(text.utf8) }
        if let encoded = binaryFiles[path], let data = Data(base64Encoded: encoded) { return Array(data) }
        return nil
    }

    public static var paths: [String] { Array(textFiles.keys) + Array(binaryFiles.keys) }
}

/// The templates and assets pages are made with: the site's own theme folder, with any
/// file it does not have taken from the default theme.
public struct Theme: Sendable {
    public var library: MustacheLibrary
    /// Files copied to the output as they are, by path inside the theme (`assets/style.css`).
    public var assets: [String: [UInt8]]
    /// A hash of each template's source, so a rebuild re-renders the pages made with an
    /// edited template and no others.
    public var templateHashes: [String: UInt64] = [:]
    /// The templates every site needs.
    public static let requiredTemplates = ["layout", "home", "article", "page", "list", "groups", "restaurants", "restaurant", "map", "homework", "grade", "day", "poster", "teachers", "404"]

    /// `stringKeys`: the words `t` answers (`ThemeStrings`), for the theme check.
    public static func load(from files: [String: [UInt8]], name: String, stringKeys: Set<String> = Set(ThemeStrings.english.values.keys), log: DiagnosticLog) -> Theme? {
        var merged: [String: (bytes: [UInt8], path: String)] = [:]
        for path in DefaultTheme.paths {
            merged[path] = (DefaultTheme.file(path)!, "Themes/default/\(path)")
        }
        for (path, bytes) in files {
            merged[path] = (bytes, "Themes/\(name)/\(path)")
        }
        var templates: [MustacheTemplate] = []
        var templateHashes: [String: UInt64] = [:]
        var broken: Set<String> = []
        var assets: [String: [UInt8]] = [:]
        for path in merged.keys.sorted() {
            let (bytes, displayPath) = merged[path]!
            guard path.hasSuffix(".mustache") else {
                // The theme's words are read by `ThemeStrings`, not published.
                if !path.hasPrefix(ThemeStrings.folder) { assets[path] = bytes }
                continue
            }
            if let problem = UTF8Check.firstInvalidByte(in: bytes, path: displayPath) {
                log.add(problem)
                continue
            }
            templateHashes[String(path.dropLast(".mustache".count))] = ContentHash.value(bytes)
            do {
                templates.append(try MustacheTemplate(name: String(path.dropLast(".mustache".count)), source: String(decoding: bytes, as: UTF8.self), path: displayPath))
            } catch {
                log.add(Diagnostic(error))
                broken.insert(String(path.dropLast(".mustache".count)))
            }
        }
        let library = MustacheLibrary(templates: templates, missingTemplates: .fail)
        for error in library.unresolvedReferences() where !broken.contains(error.unresolvedName ?? "") {
            log.add(Diagnostic(error))
        }
        // The default theme's templates are checked by its tests; a site's own are checked here.
        let assetNames = TemplateNames.assetNames(assets.keys)
        for template in templates where files["\(template.name).mustache"] != nil {
            for warning in TemplateNames.check(template, assetNames: assetNames, stringKeys: stringKeys) { log.add(warning) }
        }
        for required in requiredTemplates where library[required] == nil && !broken.contains(required) {
            log.error(at: SourceLocation(path: "Themes/\(name)", line: 1, column: 1), "the theme has no '\(required).mustache' template")
        }
        return log.hasErrors ? nil : Theme(library: library, assets: assets, templateHashes: templateHashes)
    }
}

extension MustacheError {
    /// The template name an unknown-partial or unknown-parent error is about.
    public var unresolvedName: String? {
        switch kind {
        case .unknownPartial(let name), .unknownParent(let name): name
        default: nil
        }
    }
}

extension Diagnostic {
    public init(_ error: MustacheError) {
        self = .error(at: SourceLocation(path: error.path, line: error.position.line, column: error.position.column), error.message)
    }
}

extension Theme {
    /// The site's theme, and the files it and Leaflet publish under `assets/`.
    public static func forSite(tree: SourceTree, settings: BuildSettings, log: DiagnosticLog) -> (Theme?, PublishedAssets) {
        let (site, leaflet) = (settings.site, settings.leaflet?.files)
        let themeLog = DiagnosticLog()
        let theme = Theme.load(from: tree.themes[site.theme] ?? [:], name: site.theme, stringKeys: Set(settings.strings.values.keys), log: themeLog)
        // A name that is no folder's name was reported when site.yaml was read.
        if site.theme != "default", tree.themes[site.theme] == nil, Site.isFolderName(site.theme) {
            log.error(at: site.themeLocation ?? SourceLocation(path: Site.path, line: 1, column: 1), "theme '\(site.theme)' not found: there is no folder Themes/\(site.theme)/")
        }
        themeLog.entries.forEach(log.add)
        if leaflet == nil, site.leafletFolder != nil {
            log.error(at: site.leafletLocation ?? SourceLocation(path: Site.path, line: 1, column: 1), "'map.leaflet' must be a folder with leaflet.js and leaflet.css, found '\(site.leafletFolder!)'")
        }
        var themeAssets = theme?.assets ?? [:]
        for (path, bytes) in leaflet ?? [:] { themeAssets[LeafletFiles.outputFolder + path] = bytes }
        return (theme, PublishedAssets(theme: themeAssets, minify: true))
    }
}
