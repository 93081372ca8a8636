import Foundation
import SitegenContent
import SitegenFiles
import SitegenPipeline
import SitegenPlatform
import SitegenSupport

extension SourceModel.Model {
    /// An article whose HTML is its own, not read from its page (`LazyText`).
    var isArticleWithItsHTML: Bool {
        if case .article(let article) = self { return !article.mainHTML.isLazy }
        return false
    }
}

extension BuildCache {
    struct ContentEntry: Sendable {
        var stamp: FileStamp
        var hash: UInt64
        /// The model as read from the cache, decoded only when the build needs it.
        var payload: Payload
        /// Where the model's bytes are in the model store the cache was read with: a save
        /// leaves them there instead of writing them again.
        var stored: Range<Int>?
        /// The checksum of those bytes, so that one model can be read without the store.
        var storedChecksum: UInt64 = 0

        enum Payload: Sendable {
            /// In the store, not read yet (`BuildCache.readModels`, `readModel`).
            case unread
            case encoded(ArraySlice<UInt8>)
            case decoded(SourceModel.Model, [Diagnostic])
        }

        init(stamp: FileStamp, hash: UInt64, model: SourceModel.Model, diagnostics: [Diagnostic], stored: Range<Int>? = nil, storedChecksum: UInt64 = 0) {
            self.stamp = stamp
            self.hash = hash
            self.payload = .decoded(model, diagnostics)
            self.stored = stored
            self.storedChecksum = storedChecksum
        }

        init(stamp: FileStamp, hash: UInt64, stored: Range<Int>, storedChecksum: UInt64) {
            self.stamp = stamp
            self.hash = hash
            self.payload = .unread
            self.stored = stored
            self.storedChecksum = storedChecksum
        }

        /// The model and its problems; nil when the cached bytes do not read back.
        /// `teachers`: the site's, which an assignment's teacher most likely is.
        /// `pages`: where an article's HTML is when the store left it out.
        func decoded(teachers: KnownTeachers? = nil, pages: PageTexts? = nil) -> (SourceModel.Model, [Diagnostic])? {
            switch payload {
            case .unread:
                return nil
            case .decoded(let model, let diagnostics):
                return (model, diagnostics)
            case .encoded(let bytes):
                // Read from the store unchecked (`ModelStore.read`): a damaged model is
                // made again from its source.
                guard stored == nil || Checksum.value(bytes) == storedChecksum else { return nil }
                return ContentEntry.decode(bytes, teachers: teachers, pages: pages)
            }
        }

        /// The model and its problems, read from `store` (the whole model store the cache
        /// was read with) when they were not read yet; nil when they do not read back.
        func decoded(in store: [UInt8], teachers: KnownTeachers?) -> (SourceModel.Model, [Diagnostic])? {
            guard case .unread = payload else { return decoded(teachers: teachers) }
            guard let range = stored, range.upperBound <= store.count, Checksum.value(store[range]) == storedChecksum else { return nil }
            return ContentEntry.decode(store[range], teachers: teachers)
        }

        static func decode(_ bytes: ArraySlice<UInt8>, teachers: KnownTeachers? = nil, pages: PageTexts? = nil) -> (SourceModel.Model, [Diagnostic])? {
            try? BinaryReader.reading(bytes) { reader throws(BinaryReader.Corrupt) in
                let model: SourceModel.Model
                switch try reader.integer() {
                case 0: model = .none
                // The HTML of an article the cache leaves in its page is read from there.
                case 1: model = .article(Article(try ArticleFields(from: &reader) { pages?.deferred(ofPage: $0, count: $1, source: $2) }))
                case 2: model = .assignment(Assignment(try AssignmentFields(from: &reader, teachers: teachers)))
                case 3: model = .page(try Page(from: &reader))
                default: throw BinaryReader.Corrupt()
                }
                let diagnostics = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.diagnostic() }
                return reader.isAtEnd ? (model, diagnostics) : nil
            } ?? nil
        }

        /// The model's bytes; nil when they are in the store, unread.
        /// `pages`: the pages this build made; an article whose page holds its HTML is
        /// stored without it.
        func encoded(htmlIn pages: PageTable? = nil) -> ArraySlice<UInt8>? {
            if case .encoded(let bytes) = payload { return bytes }
            let leavingOut = leavesOutHTML(pages)
            // Room for the model's HTML and a kilobyte of fields: grown from nothing, the
            // buffer of an article was made and copied a dozen times.
            var writer = BinaryWriter(reservingCapacity: encodedSizeHint(leavingOutHTML: leavingOut))
            return encode(into: &writer, leavingOutHTML: leavingOut) ? writer.bytes[...] : nil
        }

        /// About how many bytes the model's encoding takes: its HTML (unless left out) and a
        /// kilobyte.
        private func encodedSizeHint(leavingOutHTML: Bool) -> Int {
            guard case .decoded(let model, _) = payload else { return 0 }
            let html = switch model {
            case .none: 0
            case .article where leavingOutHTML: 0
            case .article(let article): article.mainHTML.utf8Count + article.subContents.reduce(0) { $0 + $1.html.utf8Count }
            case .assignment(let assignment): assignment.detailsHTML.utf8Count + assignment.detailsText.utf8Count
            case .page(let page): page.html.utf8.count
            }
            return html + 1024
        }

        /// Whether the store has this article with the HTML that its page (in `pages`)
        /// holds now: stored whole by a build without pages, to be stored without it again.
        func storedWithHTMLItsPageHolds(_ pages: PageTable?) -> Bool {
            guard stored != nil, case .decoded(let model, _) = payload, model.isArticleWithItsHTML else { return false }
            return leavesOutHTML(pages)
        }

        /// Whether the model is an article whose page, among `pages` (the pages this build
        /// made), holds its HTML: the store then leaves the HTML out.
        func leavesOutHTML(_ pages: PageTable?) -> Bool {
            guard let pages, case .decoded(.article(let article), _) = payload else { return false }
            return pages[folder: article.pagePath, name: "index.html"]?.html?.pieces.count == article.subContents.count + 1
        }

        /// Appends the model's bytes to `writer`; false when they are in the store, unread.
        /// `leavingOutHTML`: what `leavesOutHTML` says of the pages this build made.
        func encode(into writer: inout BinaryWriter, leavingOutHTML: Bool = false) -> Bool {
            switch payload {
            case .unread:
                return false
            case .encoded(let bytes):
                writer.raw(bytes)
                return true
            case .decoded(let model, let diagnostics):
                switch model {
                case .none: writer.integer(0)
                case .article(let article):
                    writer.integer(1)
                    writer.article(article, htmlElsewhere: leavingOutHTML)
                case .assignment(let assignment): writer.integer(2); writer.assignment(assignment)
                case .page(let page): writer.integer(3); writer.page(page)
                }
                writer.array(diagnostics) { $0.diagnostic($1) }
                return true
            }
        }
    }

    struct PageEntry: Sendable, Equatable {
        /// The fingerprint of everything the page shows.
        var fingerprint: UInt64
        /// The templates the page was rendered with, and their hash then.
        var templates: [String]
        var templatesHash: UInt64
        /// Where an article's page holds the article's HTML, which the model store then
        /// leaves out (`PageTexts`).
        var html: PageHTML?
    }
}
