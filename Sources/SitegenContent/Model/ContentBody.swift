import Foundation
import SitegenMarkdown
import SitegenSupport
import SitegenYAML

/// The Markdown body of a content file, its images found and published.
public enum ContentBody {
    public struct Rendered {
        public var sections: [(image: ResolvedImage?, html: [UInt8])]
        public var firstParagraph: String?
        public var plainText: String?
        public var links: [ContentLink]
        /// The photos the text shows, in order, each once.
        public var photos: [ResolvedImage]
        public var html: [UInt8] {
            guard sections.count > 1 else { return sections.first?.html ?? [] }
            var joined: [UInt8] = []
            joined.reserveCapacity(sections.reduce(0) { $0 + $1.html.count })
            for section in sections { joined.append(contentsOf: section.html) }
            return joined
        }
    }

    /// `splitsAtImages`: whether a standalone image starts a section (an article's photo
    /// sections) or stays in the HTML (a page's and an assignment's single body).
    public static func render(_ file: ContentFile, context: ModelContext, log: DiagnosticLog, includePlainText: Bool = false, splitsAtImages: Bool = true) -> Rendered {
        let basePath = context.site.basePath
        var resolved: [ResolvedImage?] = []
        var links: [ContentLink] = []
        if let refusal = MarkdownLimits.refusal(of: file.body) {
            log.error(at: SourceLocation(path: file.path, line: file.bodyFirstLine + refusal.line - 1, column: refusal.column), refusal.message)
            return Rendered(sections: [(nil, [])], firstParagraph: nil, plainText: nil, links: [], photos: [])
        }
        // A content file is read only once it is known to be UTF-8 (Parse.content).
        let markdown = Markdown.render(file.body, options: .init(allowsRawHTML: context.site.allowsRawHTML, checksUTF8: false, splitsAtImages: splitsAtImages), includePlainText: includePlainText, resolveLink: { link in
            let location = SourceLocation(path: file.path, line: file.bodyFirstLine + link.line - 1, column: link.column)
            if let scheme = LinkDestination.refusedScheme(of: link.destination) {
                log.error(at: location, "link '\(link.destination)' must be \(LinkDestination.expectation), found the scheme '\(scheme):'")
                return ""
            }
            // A root-relative link means the site's root, which is the base path when the
            // site is served under one.
            let resolved = link.destination.hasPrefix("/") && !link.destination.hasPrefix("//") ? basePath + link.destination.dropFirst() : link.destination
            links.append(ContentLink(written: link.destination, resolved: resolved, location: location))
            return resolved
        }, resolveImage: { image in
            let location = SourceLocation(path: file.path, line: file.bodyFirstLine + image.line - 1, column: image.column)
            if Summary.isBlank(image.alt) {
                log.warning(at: location, "image '\(image.source)' has no alt text, so screen readers pass over it: say what it shows between the brackets, like ![what it shows](\(image.source))")
            }
            guard let source = ImageSource(image.source) else {
                log.error(at: location, "image '\(image.source)' must be a path to an image of the site or an http/https URL")
                resolved.append(nil)
                return ResolvedMarkdownImage(url: "")
            }
            switch source {
            case .remote(let url):
                resolved.append(ResolvedImage(location: .remote(url.text), alt: image.alt))
                return ResolvedMarkdownImage(url: url.text)
            case .local(let path):
                guard let found = findLocal(path, file: file, at: location, context: context, log: log) else {
                    resolved.append(nil)
                    return ResolvedMarkdownImage(url: image.source)
                }
                resolved.append(ResolvedImage(location: .site(found.path), alt: image.alt, width: found.width, height: found.height, photo: found.photo, usedAt: location))
                return ResolvedMarkdownImage(url: basePath + found.path.urlPathEncoded, width: found.width, height: found.height,
                                             picture: found.photo.map { PhotoCandidates(path: found.path, photo: $0, settings: context.site.images).markup(basePath: basePath, sizes: PhotoCandidates.proseSizes) })
            }
        })
        if let raw = markdown.rawHTML {
            let location = SourceLocation(path: file.path, line: file.bodyFirstLine + raw.line - 1, column: raw.column)
            let more = raw.count > 1 ? " (and \(raw.count - 1) more in this file)" : ""
            log.warning(at: location, "raw HTML '\(raw.text)' is left out of the page\(more): add 'markdown: {unsafe: true}' to site.yaml to let it through")
        }
        let sections = markdown.sections.map { section -> (ResolvedImage?, [UInt8]) in
            (section.imageIndex.flatMap { resolved[$0] }, section.utf8)
        }
        var seen: Set<String> = []
        let photos = resolved.compactMap { image -> ResolvedImage? in
            guard let image, image.photo != nil, case .site(let path) = image.location, seen.insert(path).inserted else { return nil }
            return image
        }
        return Rendered(sections: sections, firstParagraph: markdown.firstParagraph, plainText: markdown.plainText, links: links, photos: photos)
    }

    public static func findLocal(_ path: String, file: ContentFile, at location: SourceLocation, context: ModelContext, log: DiagnosticLog) -> (path: String, width: Int?, height: Int?, photo: PhotoFile?)? {
        switch context.images.find(path, from: file.contentPath) {
        case .found(let found, let size, let photo):
            if let problem = size?.problem {
                // A file named as a photo that is none would be published as it is, and
                // whatever it holds with it.
                let isBrokenPhoto = PhotoFile.hasPhotoExtension(found) && size.map(ImageSize.isBroken) == true
                let message = "image '\(path)' must be \(ImageSize.expectation), found \(problem)"
                if isBrokenPhoto {
                    log.error(at: location, message + ": replace it with the photo itself (docs/photos.md)")
                    return nil
                }
                log.warning(at: location, message)
            }
            if let photo, let error = context.site.images.limitError(photo, bytes: context.images.fileSize(found), file: path) {
                log.error(at: location, error)
                return nil
            }
            guard case .size(let width, let height)? = size else { return (found, nil, nil, photo) }
            return (found, photo?.width ?? width, photo?.height ?? height, photo)
        case .outside:
            log.error(at: location, "image '\(path)' leads outside Content/")
        case .missing(let candidates):
            let tried = candidates.map { "Content/" + $0 }.joined(separator: " and ")
            log.error(at: location, "image '\(path)' not found: looked for \(tried)")
        }
        return nil
    }
}
