import Foundation
import SitegenPlatform
import SitegenSupport

/// A file's size and modification time: when both are as before, the file is taken to
/// be as before (as make, rsync and git do).
struct FileStamp: Sendable, Hashable {
    var size: Int
    var modified: Int64

    static func of(_ path: String) -> FileStamp? {
        of(path, in: AT_FDCWD)
    }

    /// The stamp of `path` relative to `folder` (a descriptor of an open folder): the
    /// kernel looks up only the folders below it, not the whole path again, for each of
    /// 60,000 files.
    static func of(_ path: String, in folder: Int32) -> FileStamp? {
        path.withCString { of($0, in: folder) }
    }

    /// The stamp of the NUL-terminated name `path` in `folder`, for names read by
    /// `readdir` that were never made into strings.
    static func of(_ path: UnsafePointer<UInt8>, in folder: Int32) -> FileStamp? {
        path.withMemoryRebound(to: CChar.self, capacity: 1) { of($0, in: folder) }
    }

    private static func of(_ path: UnsafePointer<CChar>, in folder: Int32) -> FileStamp? {
        var info = stat()
        guard fstatat(folder, path, &info, 0) == 0 else { return nil }
        return FileStamp(size: Int(info.st_size), modified: OutputManifest.time(of: info))
    }
}

/// A folder held open while files in it are looked at by relative path.
final class OpenFolder: Sendable {
    let descriptor: Int32

    init?(_ path: String) {
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
    }

    /// The folder `name` (NUL-terminated) in the open folder `parent`.
    init?(_ name: UnsafePointer<CChar>, in parent: Int32) {
        descriptor = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
    }

    func stamp(of path: String) -> FileStamp? {
        FileStamp.of(path, in: descriptor)
    }

    deinit {
        close(descriptor)
    }
}

/// What a build leaves for the next one, outside the published folder and outside the
/// site: every input's stamp, every content file's model, every page's fingerprint and
/// the manifest of the output. A cache that does not read back whole, or was written by
/// another version of sitegen or for other options, is ignored.
struct BuildCache: Sendable {
    static let format = "sitegen-build-cache-26"

    /// Indirect: an entry is moved and copied through dictionaries of 60,000 sources, and
    /// an article inline made each entry hundreds of bytes (a quarter of a cached rebuild's
    /// page faults were those dictionaries growing).
    indirect enum Model: Sendable {
        case article(Article)
        case assignment(Assignment)
        case page(Page)
        case none

        /// An article whose HTML is its own, not read from its page (`DeferredHTML`).
        var isArticleWithItsHTML: Bool {
            if case .article(let article) = self { return !article.mainHTML.isDeferred }
            return false
        }
    }

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
            case decoded(Model, [Diagnostic])
        }

        init(stamp: FileStamp, hash: UInt64, model: Model, diagnostics: [Diagnostic], stored: Range<Int>? = nil, storedChecksum: UInt64 = 0) {
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
        func decoded(teachers: KnownTeachers? = nil, pages: PageTexts? = nil) -> (Model, [Diagnostic])? {
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

        static func decode(_ bytes: ArraySlice<UInt8>, teachers: KnownTeachers? = nil, pages: PageTexts? = nil) -> (Model, [Diagnostic])? {
            try? BinaryReader.reading(bytes) { reader throws(BinaryReader.Corrupt) in
                let model: Model
                switch try reader.integer() {
                case 0: model = .none
                case 1: model = .article(try reader.article(pages: pages))
                case 2: model = .assignment(try reader.assignment(teachers: teachers))
                case 3: model = .page(try reader.page())
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
                    writer.article(article, htmlInPage: leavingOutHTML)
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

    /// The tool version and options the cache was made for.
    var signature: String
    /// The settled moment the pages were made at (`BuildMoment.settled`, its `key`): a
    /// build at another one takes the models from the cache but renders again the pages
    /// that show the moment, which their fingerprints tell.
    var moment = ""
    /// site.yaml, teachers.yaml and the list of static files: what every model depends on.
    var contextHash: UInt64
    /// The stamps of the site's files but its Markdown files (whose are in `content`).
    var inputs: [String: FileStamp] = [:]
    /// The hash of each static file's bytes as of its stamp in `inputs`, by path relative
    /// to the site: what the models depend on (`staticHashes(of:known:racy:)`).
    var staticHashes: [String: UInt64] = [:]
    var diagnostics: [Diagnostic] = []
    var content = ContentTable()
    var pages = PageTable()
    var outputs = PathTable<OutputManifest.Entry>()
    /// The modification time of every folder of the output (relative, "" for the output
    /// itself) as the last build left it: a folder whose time changed may hold files the
    /// site never wrote, which a build removes as it would without the cache.
    var folders = PathTable<Int64>()
    var pageCount = 0
    var fileCount = 0
    /// The model store this cache was read with: which one, how much of it, and the
    /// checksum of that much.
    var store = ModelStore.Mark()
    /// Which members of articles the list pages read (`ArticleView.Reads`), over every
    /// build since the pages were last all rendered: an edit that changes none of them
    /// leaves every list page as it is.
    var cardReads: UInt64 = 0
    /// The articles of the site's feed, newest first (paths relative to the site).
    var feedSources: [String] = []
    /// What the build learned from ICU of the site's language (`Formats.learn`).
    var formatFacts: FormatFacts?
    /// The hash of the bytes of every input (path relative to the site) whose stamp was
    /// too recent to tell it when the cache was made: a file system stamps times from a
    /// clock that moves in ticks, and a file written again in the tick it was looked at in
    /// keeps its stamp (and its size, if its bytes are as many). Such a file is read again
    /// by the next build and told changed by its bytes.
    var racyInputs: [String: UInt64] = [:]
    /// The checksum of the lists beside the cache file (`SiteLists`) made for this cache;
    /// 0 when there are none.
    var listsChecksum: UInt64 = 0
    /// The checksum of the cache file as it was read, when it was: the changes a save
    /// writes beside it are the changes to that file.
    var base: UInt64?
    var changes = Changes()

    /// Takes the changes of a rebuild of edited articles.
    mutating func take(_ edits: EditedArticles.Edits) {
        for (path, entry) in edits.content {
            content[path] = entry
            racyInputs["Content/" + path] = entry.stamp.modified >= edits.settledBefore ? entry.hash : nil
        }
        pages.merge(edits.pages)
        formatFacts = edits.formatFacts ?? formatFacts
        cardReads |= edits.cardReads
        changes.content.formUnion(edits.content.keys)
        changes.pages.formUnion(edits.pages.keys)
    }

    /// The paths (relative to the site) of the files of `tree` whose stamps are not as
    /// in this cache, or whose bytes are not (`racyChanges`), when there are at most
    /// `limit` and no file came or went; nil otherwise. Empty: nothing changed.
    func inputsChanged(in tree: SourceTree, upTo limit: Int, racy: Set<String> = []) -> [String]? {
        guard tree.stamps.count == inputs.count, tree.markdown.count == content.count else { return nil }
        var changed: [String] = []
        for (path, stamp) in tree.stamps where inputs[path] != stamp || racy.contains(path) {
            guard inputs[path] != nil, changed.count < limit else { return nil }
            changed.append(path)
        }
        // Both list the Markdown files in the order of their paths, compared as bytes in
        // place (`PackedPaths`).
        let same = tree.markdown.withUnsafeBufferPointer { files in
            content.entries.withUnsafeBufferPointer { entries in
                content.paths.withView { paths in
                    for index in files.indices {
                        guard paths.isSame(at: index, as: files[index].contentPath) else { return false }
                        if entries[index].stamp != files[index].stamp {
                            guard changed.count < limit else { return false }
                            changed.append("Content/" + files[index].contentPath)
                        }
                    }
                    return true
                }
            }
        }
        guard same else { return nil }
        for path in racy where path.hasPrefix("Content/") && tree.stamps[path] == nil && !changed.contains(path) {
            guard changed.count < limit else { return nil }
            changed.append(path)
        }
        return changed
    }

    /// The inputs of `racyInputs` whose stamps are the same in `tree` but whose bytes are
    /// not (paths relative to the site): each is hashed again.
    func racyChanges(in tree: SourceTree) -> Set<String> {
        var changed: Set<String> = []
        for (path, hash) in racyInputs {
            // A stamp that changed tells the change itself.
            guard let stamp = tree.stamp(of: path), stamp == self.stamp(of: path) else { continue }
            if tree.bytes(of: path).map(ContentHash.value) != hash { changed.insert(path) }
        }
        return changed
    }

    /// The hash of the bytes of each static file of `tree`, by path relative to the site:
    /// `known`'s when the file's stamp is the one it has and the bytes did not change
    /// within the stamp's tick (`racy`), else read now, on both cores.
    static func staticHashes(of tree: SourceTree, known: BuildCache?, racy: Set<String>) -> [String: UInt64] {
        var hashes: [String: UInt64] = [:]
        hashes.reserveCapacity(tree.staticFiles.count)
        var unknown: [String] = []
        for file in tree.staticFiles {
            let path = "Content/" + file
            if let known, let stamp = tree.stamps[path], known.inputs[path] == stamp, let hash = known.staticHashes[path], !racy.contains(path) {
                hashes[path] = hash
            } else {
                unknown.append(path)
            }
        }
        for (path, hash) in zip(unknown, parallelMap(unknown) { tree.bytes(of: $0).map(ContentHash.value) ?? 0 }) {
            hashes[path] = hash
        }
        return hashes
    }

    /// The stamp this cache has of the input at `path` (relative to the site).
    private func stamp(of path: String) -> FileStamp? {
        inputs[path] ?? (path.hasPrefix("Content/") ? content[String(path.dropFirst("Content/".count))]?.stamp : nil)
    }

    /// Forgets the racy inputs whose stamps in `tree` are settled now: after a build that
    /// found them unchanged, their stamps tell a later change. Whether any was forgotten.
    mutating func settleRacyInputs(in tree: SourceTree) -> Bool {
        let before = racyInputs.count
        racyInputs = racyInputs.filter { path, _ in tree.stamp(of: path).map { $0.modified >= tree.settledBefore } ?? false }
        return racyInputs.count != before
    }

    /// `racyInputs` for a cache of `tree`: the inputs whose stamps are not before the
    /// walk's `settledBefore`, each with the hash of its bytes (`hashes` for Markdown files
    /// and `staticHashes` for static files, by path relative to the site; the others read).
    static func racyInputs(of tree: SourceTree, hashes: [String: UInt64], staticHashes: [String: UInt64]) -> [String: UInt64] {
        var racy: [String: UInt64] = [:]
        for file in tree.markdown where file.stamp.modified >= tree.settledBefore {
            let path = "Content/" + file.contentPath
            if let hash = hashes[path] { racy[path] = hash }
        }
        for (path, stamp) in tree.stamps where stamp.modified >= tree.settledBefore {
            racy[path] = staticHashes[path] ?? tree.bytes(of: path).map(ContentHash.value) ?? 0
        }
        return racy
    }

    /// Reads every model of the store at once, checked as a whole. When the store does
    /// not read back, no model of this cache is used and a new store is written.
    mutating func readModels(besides path: String) {
        guard let models = ModelStore.read(ModelStore.path(besides: path), as: store) else {
            content = ContentTable()
            store = ModelStore.Mark()
            return
        }
        content.updateEach { entry in
            if case .unread = entry.payload, let range = entry.stored { entry.payload = .encoded(models[range]) }
        }
    }

    /// The store beside the cache file at `path`, opened to read a few models alone.
    func openModels(besides path: String) -> ModelStore.Models? {
        ModelStore.Models(ModelStore.path(besides: path), mark: store)
    }

    /// The model of the content file at `contentPath`, read alone from `models` when it
    /// was not read yet; nil when there is none or its bytes are not as written. An
    /// article's HTML left out of the store is read from its page when needed (`pages`).
    func model(_ contentPath: String, from models: ModelStore.Models, pages: PageTexts) -> (Model, [Diagnostic])? {
        guard let entry = content[contentPath] else { return nil }
        guard case .unread = entry.payload else { return entry.decoded(pages: pages) }
        guard let range = entry.stored, let bytes = models.model(at: range, checksum: entry.storedChecksum) else { return nil }
        return ContentEntry.decode(bytes[...], pages: pages)
    }

    /// `<cache folder>/<hash of the site and output folders>.cache`; the models are in
    /// the store beside it (`.models`).
    static func file(in folder: String, site: URL, output: URL) -> String {
        let key = ContentHash.hex(Array((site.standardizedFileURL.path + "\n" + output.standardizedFileURL.path).utf8))
        return folder + "/" + key + ".cache"
    }

    /// `$XDG_CACHE_HOME/sitegen`, or `~/.cache/sitegen`.
    static var defaultFolder: String {
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/sitegen" }
        return (environment["HOME"] ?? NSTemporaryDirectory()) + "/.cache/sitegen"
    }

    /// The cache at `path`, or nil when there is none or it does not read back whole,
    /// with the changes written beside it since (`save`). Its models stay in the store,
    /// unread: a rebuild reads them all (`readModels`) or only the few it needs
    /// (`readModel`).
    static func load(from path: String) -> BuildCache? {
        let read = readChecked(path) { reader, checksum throws(BinaryReader.Corrupt) -> BuildCache? in
            guard try reader.string() == format else { return nil }
            var cache = BuildCache(signature: try reader.string(), contextHash: try reader.unsigned())
            try cache.readSummary(&reader)
            try cache.readInputs(&reader)
            cache.staticHashes = try cache.readHashes(&reader)
            try cache.readContent(&reader)
            try cache.readPages(&reader)
            try cache.readOutputs(&reader)
            try cache.readFolders(&reader)
            cache.base = checksum
            return cache
        }
        guard var cache = read else { return nil }
        cache.applyChanges(besides: path)
        return cache
    }

    /// What `read` makes of the file written by `writeChecked` at `path` (given its bytes
    /// but the checksum, and the checksum), read in place while the file is mapped; nil
    /// when there is no such file, when it is not exactly as written (a bit flipped on
    /// disk, a write cut short: not trusted at all), when it does not read back, or when
    /// `read` stops short of its end or returns nil.
    static func readChecked<Result>(_ path: String, _ read: (inout BinaryReader, UInt64) throws(BinaryReader.Corrupt) -> Result?) -> Result? {
        guard let file = MappedFile(path), file.bytes.count > 8 else { return nil }
        return withExtendedLifetime(file) {
            let body = UnsafeBufferPointer(rebasing: file.bytes[..<(file.bytes.count - 8)])
            let stored = UInt64(littleEndian: UnsafeRawPointer(file.bytes.baseAddress! + body.count).loadUnaligned(as: UInt64.self))
            guard Checksum.value(UnsafeRawBufferPointer(body)) == stored else { return nil }
            let result = try? BinaryReader.reading(body) { reader throws(BinaryReader.Corrupt) -> Result? in
                let result = try read(&reader, stored)
                return reader.isAtEnd ? result : nil
            }
            return result ?? nil
        }
    }

    /// The changes beside the cache file at `path`, when they were made to this very file.
    private mutating func applyChanges(besides path: String) {
        let read = BuildCache.readChecked(BuildCache.changesPath(besides: path)) { [signature, contextHash, base] reader, _ throws(BinaryReader.Corrupt) -> BuildCache? in
            var changed = BuildCache(signature: signature, contextHash: contextHash)
            guard try reader.string() == BuildCache.changesFormat, try reader.unsigned() == base else { return nil }
            try changed.readSummary(&reader)
            try changed.readContent(&reader)
            try changed.readPages(&reader)
            try changed.readOutputs(&reader)
            try changed.readFolders(&reader)
            return changed
        }
        guard let changed = read else { return }
        pageCount = changed.pageCount
        fileCount = changed.fileCount
        store = changed.store
        diagnostics = changed.diagnostics
        cardReads = changed.cardReads
        feedSources = changed.feedSources
        formatFacts = changed.formatFacts
        moment = changed.moment
        racyInputs = changed.racyInputs
        listsChecksum = changed.listsChecksum
        for (path, entry) in zip(changed.content.paths, changed.content.entries) { content[path] = entry }
        let changedPages = changed.pages.materialized()
        pages.merge(changedPages)
        outputs.merge(changed.outputs)
        folders.merge(changed.folders)
        changes = Changes(content: Set(changed.content.paths), pages: Set(changedPages.keys),
                          outputs: Set(changed.outputs.keys), folders: Set(changed.folders.keys))
    }

    static func changesPath(besides path: String) -> String { path + "-changes" }

    private static let changesFormat = format + "-changes"

    /// The keys changed since the cache file was last written whole, by rebuilds that
    /// knew what they changed: a save of a few changes writes them beside the file
    /// instead of the file again.
    struct Changes: Sendable {
        var content: Set<String> = []
        var pages: Set<String> = []
        var outputs: Set<String> = []
        var folders: Set<String> = []

        var count: Int { content.count + pages.count + outputs.count + folders.count }
    }

    /// More changes than this and the cache file is written whole again.
    static let changesLimit = 2_000

    /// Writes the cache. After a rebuild that knew what it changed (`changes`), only the
    /// new models are added to the store and the changes written beside the cache file.
    /// Otherwise the models not in the store yet are added to its end (or, when most of
    /// the store is models no longer used, a new store is written), then the rest is
    /// written to a new file that replaces the old one. `stored`: what a save of the
    /// models begun earlier (beside the rendering) did. A cache that cannot be written
    /// only costs speed.
    /// `pendingFolders`: the output's folder times, still being looked at, when the cache
    /// has none yet; written last, after everything else.
    func save(to path: String, stored: ModelStore.Saved? = nil, folders pendingFolders: Concurrently<PathTable<Int64>>? = nil) {
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if stored == nil, pendingFolders == nil, let base, changes.count <= BuildCache.changesLimit {
            saveChanges(to: path, base: base)
            return
        }
        guard let saved = stored ?? BuildCache.saveModels(content, besides: path, readAs: store), saved.commit() else {
            _ = pendingFolders?.wait()
            return
        }
        writeIndex(to: path, saved: saved) { pendingFolders?.wait() ?? folders }
        unlink(BuildCache.changesPath(besides: path))
        BuildCache.prune(folder, keeping: path)
    }

    /// Adds the models of `content` that the store read as `mark` lacks to the store
    /// beside the cache file at `path`; `pages` as `ModelStore.save` takes them.
    static func saveModels(_ content: ContentTable, besides path: String, readAs mark: ModelStore.Mark,
                           htmlIn pages: PageTable? = nil) -> ModelStore.Saved? {
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        return ModelStore.save(content, at: ModelStore.path(besides: path), readAs: mark, htmlIn: pages)
    }

    private func saveChanges(to path: String, base: UInt64) {
        let fresh = changes.content.filter { content[$0]?.stored == nil }.compactMap { key in content[key]?.encoded().map { (key, $0) } }
        guard let (mark, places) = ModelStore.append(fresh.map(\.1), at: ModelStore.path(besides: path), readAs: store) else { return }
        let placed = Dictionary(uniqueKeysWithValues: zip(fresh.map(\.0), places))
        var writer = BinaryWriter(reservingCapacity: changes.count * 96 + 4096)
        writer.string(BuildCache.changesFormat)
        writer.unsigned(base)
        writeSummary(&writer, store: mark)
        writeContent(changes.content.sorted().map { path in
            let entry = content[path]!
            let place = placed[path] ?? (entry.stored!, entry.storedChecksum)
            return (path, entry.stamp, entry.hash, place.range, place.checksum)
        }, &writer)
        writePages(pages.only(changes.pages), &writer)
        writeOutputs(outputs.only(changes.outputs), &writer)
        writeFolders(folders.only(changes.folders), &writer)
        BuildCache.writeChecked(&writer, to: BuildCache.changesPath(besides: path))
    }

    private func writeIndex(to path: String, saved: ModelStore.Saved, folders: () -> PathTable<Int64>) {
        var writer = BinaryWriter(reservingCapacity: (inputs.count + content.count + pages.count + outputs.count) * 96 + 4096)
        writer.string(BuildCache.format)
        writer.string(signature)
        writer.unsigned(contextHash)
        writeSummary(&writer, store: saved.mark)
        writeInputs(inputs, &writer)
        writeHashes(staticHashes, &writer)
        writeContent(saved.paths.indices.lazy.map { index in
            (saved.paths[index], saved.stamps[index], saved.hashes[index], saved.locations[index], saved.checksums[index])
        }, &writer)
        writePages(pages, &writer)
        writeOutputs(outputs, &writer)
        writeFolders(folders(), &writer)
        BuildCache.writeChecked(&writer, to: path)
    }

    /// Adds the checksum and puts the file in place at once, making its folder when there
    /// is none: a first build writes its folder listings before anything else of its cache
    /// (lost until the folder was made here, so the next build read every folder again).
    /// Returns the checksum, or nil when the file could not be put in place.
    @discardableResult
    static func writeChecked(_ writer: inout BinaryWriter, to path: String) -> UInt64? {
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let checksum = Checksum.value(writer.bytes[...])
        for shift in stride(from: 0, to: 64, by: 8) { writer.append(UInt8(truncatingIfNeeded: checksum >> UInt64(shift))) }
        let temporary = path + ".\(getpid()).tmp"
        if ModelStore.write(writer.bytes, to: temporary), rename(temporary, path) == 0 { return checksum }
        unlink(temporary)
        return nil
    }

    // Each part of the cache file is written by one function and read back by its twin.

    private func writeSummary(_ writer: inout BinaryWriter, store: ModelStore.Mark) {
        writer.integer(pageCount)
        writer.integer(fileCount)
        writer.unsigned(store.identity)
        writer.integer(store.length)
        writer.array(diagnostics) { $0.diagnostic($1) }
        writer.unsigned(cardReads)
        writer.array(feedSources) { $0.string($1) }
        writer.optional(formatFacts) { $0.formatFacts($1) }
        writer.string(moment)
        writeHashes(racyInputs, &writer)
        writer.unsigned(listsChecksum)
    }

    private mutating func readSummary(_ reader: inout BinaryReader) throws(BinaryReader.Corrupt) {
        pageCount = try reader.integer()
        fileCount = try reader.integer()
        store = ModelStore.Mark(identity: try reader.unsigned(), length: try reader.integer())
        diagnostics = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.diagnostic() }
        cardReads = try reader.unsigned()
        feedSources = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.string() }
        formatFacts = try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.formatFacts() }
        moment = try reader.string()
        racyInputs = try readHashes(&reader)
        listsChecksum = try reader.unsigned()
    }

    // Each writer takes the entries with their paths: looked up again by path, a large site's
    // 60,000 inputs and 13,000 pages were hashed once more each, on one core, at the end.
    private func writeInputs(_ entries: some Collection<(key: String, value: FileStamp)>, _ writer: inout BinaryWriter) {
        writer.unsigned(UInt64(entries.count))
        for (path, stamp) in entries {
            writer.string(path)
            writer.integer(stamp.size)
            writer.word(UInt64(bitPattern: stamp.modified))
        }
    }

    private mutating func readInputs(_ reader: inout BinaryReader) throws(BinaryReader.Corrupt) {
        let count = try reader.count()
        inputs.reserveCapacity(inputs.count + count)
        for _ in 0..<count {
            let path = try reader.string()
            inputs[path] = FileStamp(size: try reader.integer(), modified: Int64(bitPattern: try reader.word()))
        }
    }

    /// Hashes by path (`racyInputs`, `staticHashes`), in the order of their paths.
    private func writeHashes(_ hashes: [String: UInt64], _ writer: inout BinaryWriter) {
        writer.unsigned(UInt64(hashes.count))
        for (path, hash) in hashes.sorted(by: { $0.key < $1.key }) {
            writer.string(path)
            writer.word(hash)
        }
    }

    private func readHashes(_ reader: inout BinaryReader) throws(BinaryReader.Corrupt) -> [String: UInt64] {
        let count = try reader.count()
        var hashes: [String: UInt64] = [:]
        hashes.reserveCapacity(count)
        for _ in 0..<count { hashes[try reader.string()] = try reader.word() }
        return hashes
    }

    /// Each model's source, its stamp and hash, and where the model is in the store.
    private func writeContent(_ entries: some Collection<(String, FileStamp, UInt64, Range<Int>, UInt64)>, _ writer: inout BinaryWriter) {
        writer.unsigned(UInt64(entries.count))
        for (path, stamp, hash, range, checksum) in entries {
            writer.string(path)
            writer.integer(stamp.size)
            writer.word(UInt64(bitPattern: stamp.modified))
            writer.word(hash)
            writer.integer(range.lowerBound)
            writer.integer(range.upperBound)
            writer.word(checksum)
        }
    }

    private mutating func readContent(_ reader: inout BinaryReader) throws(BinaryReader.Corrupt) {
        let count = try reader.count()
        content.reserveCapacity(count)
        for _ in 0..<count {
            let path = try reader.bytes()
            let stamp = FileStamp(size: try reader.integer(), modified: Int64(bitPattern: try reader.word()))
            let hash = try reader.word()
            let start = try reader.integer()
            let end = try reader.integer()
            let checksum = try reader.word()
            guard ModelStore.headerLength <= start, start <= end, end <= store.length else { throw BinaryReader.Corrupt() }
            let entry = ContentEntry(stamp: stamp, hash: hash, stored: start..<end, storedChecksum: checksum)
            guard content.append(path, entry) else { throw BinaryReader.Corrupt() }
        }
    }

    private func writePages(_ table: PageTable, _ writer: inout BinaryWriter) {
        table.write(to: &writer)
    }

    private mutating func readPages(_ reader: inout BinaryReader) throws(BinaryReader.Corrupt) {
        pages = try PageTable.read(&reader)
    }

    private func writeOutputs(_ table: PathTable<OutputManifest.Entry>, _ writer: inout BinaryWriter) {
        writer.unsigned(UInt64(table.count))
        table.paths.withView { paths in
            for (index, entry) in table.values.enumerated() {
                writer.slice(paths[index])
                writer.integer(entry.size)
                writer.word(UInt64(bitPattern: entry.modified))
                writer.word(entry.hash)
            }
        }
    }

    /// Read into an empty table, in the order they were written.
    private mutating func readOutputs(_ reader: inout BinaryReader) throws(BinaryReader.Corrupt) {
        let count = try reader.count()
        outputs.reserveCapacity(count)
        for _ in 0..<count {
            let path = try reader.bytes()
            let entry = OutputManifest.Entry(size: try reader.integer(), modified: Int64(bitPattern: try reader.word()), hash: try reader.word())
            guard outputs.append(path, entry) else { throw BinaryReader.Corrupt() }
        }
    }

    private func writeFolders(_ table: PathTable<Int64>, _ writer: inout BinaryWriter) {
        writer.unsigned(UInt64(table.count))
        table.paths.withView { paths in
            for (index, time) in table.values.enumerated() {
                writer.slice(paths[index])
                writer.word(UInt64(bitPattern: time))
            }
        }
    }

    private mutating func readFolders(_ reader: inout BinaryReader) throws(BinaryReader.Corrupt) {
        let count = try reader.count()
        folders.reserveCapacity(count)
        for _ in 0..<count {
            let path = try reader.bytes()
            guard folders.append(path, Int64(bitPattern: try reader.word())) else { throw BinaryReader.Corrupt() }
        }
    }

    /// Caches of sites not built for a month are removed, so the folder does not grow forever.
    private static func prune(_ folder: String, keeping kept: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let limit = Int64(Date().addingTimeInterval(-30 * 86_400).timeIntervalSince1970) * 1_000_000_000
        for name in names where name.hasSuffix(".cache") && folder + "/" + name != kept {
            if let stamp = FileStamp.of(folder + "/" + name), stamp.modified < limit {
                unlink(folder + "/" + name)
                unlink(changesPath(besides: folder + "/" + name))
                unlink(ModelStore.path(besides: folder + "/" + name))
                unlink(FolderListings.path(besides: folder + "/" + name))
                unlink(SiteLists.path(besides: folder + "/" + name))
            }
        }
    }
}

/// The cache's entry of each Markdown file, in the order of their paths (`String`'s, as
/// the site's tree lists them): compared with the tree in one pass and looked up by
/// binary search, without a table of 60,000 hashed paths.
struct ContentTable: Sendable {
    private(set) var paths = PackedPaths()
    private(set) var entries: [BuildCache.ContentEntry] = []

    init() {}

    /// `paths` in their order, each with its entry.
    init(sorted paths: [String], entries: [BuildCache.ContentEntry]) {
        self.paths = PackedPaths(paths)
        self.entries = entries
    }

    var count: Int { paths.count }
    var isEmpty: Bool { paths.isEmpty }

    mutating func reserveCapacity(_ count: Int) {
        paths.reserveCapacity(count)
        entries.reserveCapacity(count)
    }

    /// Adds an entry whose path comes after every path of the table.
    mutating func append(_ path: String, _ entry: BuildCache.ContentEntry) {
        paths.append(path)
        entries.append(entry)
    }

    /// Adds an entry whose path is given as bytes; false, adding nothing, when the path
    /// does not come after every path of the table.
    mutating func append(_ path: UnsafeBufferPointer<UInt8>, _ entry: BuildCache.ContentEntry) -> Bool {
        guard paths.append(inOrder: path) else { return false }
        entries.append(entry)
        return true
    }

    private func place(of path: String) -> Int {
        paths.indices.partitioningIndex { paths.order(at: $0, path) >= 0 }
    }

    subscript(path: String) -> BuildCache.ContentEntry? {
        get {
            let place = place(of: path)
            return place < paths.count && paths.order(at: place, path) == 0 ? entries[place] : nil
        }
        set {
            let place = place(of: path)
            paths.set(newValue, of: path, at: (place, place < paths.count && paths.order(at: place, path) == 0), in: &entries)
        }
    }

    /// The entries of `files` (in the order of their paths), nil for those without one,
    /// found in one pass over both lists.
    func entries(for files: [SourceTree.MarkdownFile]) -> [BuildCache.ContentEntry?] {
        var found: [BuildCache.ContentEntry?] = []
        found.reserveCapacity(files.count)
        var index = 0
        paths.withView { paths in
            for file in files {
                var order = 1
                while index < entries.count {
                    order = paths.order(at: index, file.contentPath)
                    guard order < 0 else { break }
                    index += 1
                }
                found.append(index < entries.count && order == 0 ? entries[index] : nil)
            }
        }
        return found
    }

    mutating func updateEach(_ update: (inout BuildCache.ContentEntry) -> Void) {
        for index in entries.indices { update(&entries[index]) }
    }
}

/// A fast checksum over whole 8-byte words, for telling a damaged cache file.
enum Checksum {
    /// Of one piece (a model, a cache file): four words at a time, each into a lane of its
    /// own, so that the multiplies do not wait for each other. One lane, a full build spent
    /// a fiftieth of its time checksumming the 80 MB of models of 10,000 articles.
    static func value(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { value($0) }
    }

    static func value(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        let count = raw.count
        var lanes = (0x9E37_79B9_7F4A_7C15 ^ UInt64(count), 0x6A09_E667_F3BC_C908 as UInt64, 0xBB67_AE85_84CA_A73B as UInt64, 0x3C6E_F372_FE94_F82B as UInt64)
        var offset = 0
        while offset + 32 <= count {
            lanes.0 = mix(lanes.0, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            lanes.1 = mix(lanes.1, raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            lanes.2 = mix(lanes.2, raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
            lanes.3 = mix(lanes.3, raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
            offset += 32
        }
        var hash = mix(mix(mix(lanes.0, lanes.1), lanes.2), lanes.3)
        while offset + 8 <= count {
            hash = mix(hash, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        while offset < count {
            hash = (hash ^ UInt64(raw[offset])) &* 0xC4CE_B9FE_1A85_EC53
            offset += 1
        }
        return hash ^ (hash >> 32)
    }

    /// A bijection of `hash` for any `word`, and of `word` for any `hash`: one word that
    /// differs always changes the result.
    @inline(__always)
    private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
        return mixed ^ (mixed >> 29)
    }
}

/// Several values folded into 64 bits, for fingerprints of what a page shows, a word at
/// a time: a rebuild fingerprints every page of the site (13,000 on a large one) from
/// dozens of values each, and FNV-1a's multiply per byte was most of that.
struct Fingerprint {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Each step is a bijection of the state, so one differing word always changes it.
    private mutating func mix(_ word: UInt64) {
        value = (value ^ word) &* 0x9E37_79B9_7F4A_7C15
        value ^= value >> 32
    }

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset + 8 <= bytes.count {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        var tail: UInt64 = 0
        for index in offset..<bytes.count {
            tail |= UInt64(bytes[index]) << UInt64((index - offset) * 8)
        }
        // The length goes into the last word's free top byte: "ab" then "c" and "a" then
        // "bc" must differ.
        mix(tail | UInt64(truncatingIfNeeded: bytes.count) << 56)
    }

    mutating func add(_ bytes: [UInt8]) { bytes.withUnsafeBytes { add($0) } }

    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    mutating func add(_ number: UInt64) { mix(number) }

    mutating func add(_ number: Int) { add(UInt64(bitPattern: Int64(number))) }
}
