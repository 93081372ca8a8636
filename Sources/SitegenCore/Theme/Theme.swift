import Foundation
import SitegenContent
import SitegenMustache
import SitegenSupport
import SitegenYAML

/// The theme sitegen carries in its binary, so that a site without Themes/ builds.
enum DefaultTheme {
    static func file(_ path: String) -> [UInt8]? {
        if let text = textFiles[path] { return Array(text.utf8) }
        if let encoded = binaryFiles[path], let data = Data(base64Encoded: encoded) { return Array(data) }
        return nil
    }

    static var paths: [String] { Array(textFiles.keys) + Array(binaryFiles.keys) }
}

/// The templates and assets pages are made with: the site's own theme folder, with any
/// file it does not have taken from the default theme.
struct Theme: Sendable {
    var library: MustacheLibrary
    /// Files copied to the output as they are, by path inside the theme (`assets/style.css`).
    var assets: [String: [UInt8]]
    /// A hash of each template's source, so a rebuild re-renders the pages made with an
    /// edited template and no others.
    var templateHashes: [String: UInt64] = [:]

    /// The templates every site needs.
    static let requiredTemplates = ["layout", "home", "article", "page", "list", "groups", "restaurants", "restaurant", "map", "homework", "grade", "day", "teachers", "404"]

    static func load(from files: [String: [UInt8]], name: String, log: DiagnosticLog) -> Theme? {
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
                assets[path] = bytes
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
            for warning in TemplateNames.check(template, assetNames: assetNames) { log.add(warning) }
        }
        for required in requiredTemplates where library[required] == nil && !broken.contains(required) {
            log.error(at: SourceLocation(path: "Themes/\(name)", line: 1, column: 1), "the theme has no '\(required).mustache' template")
        }
        return log.hasErrors ? nil : Theme(library: library, assets: assets, templateHashes: templateHashes)
    }
}

extension MustacheError {
    /// The template name an unknown-partial or unknown-parent error is about.
    var unresolvedName: String? {
        switch kind {
        case .unknownPartial(let name), .unknownParent(let name): name
        default: nil
        }
    }
}

extension Diagnostic {
    init(_ error: MustacheError) {
        self = .error(at: SourceLocation(path: error.path, line: error.position.line, column: error.position.column), error.message)
    }
}
