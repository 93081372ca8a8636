import Foundation
import SitegenContent
import SitegenFiles
import SitegenPipeline
import SitegenPlatform
import SitegenSupport

extension BuildCache {
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
    /// An assignment's teacher is one of `teachers`.
    func model(_ contentPath: String, from models: ModelStore.Models, pages: PageTexts? = nil, teachers: KnownTeachers? = nil) -> (SourceModel.Model, [Diagnostic])? {
        content[contentPath].flatMap { BuildCache.model(of: $0, from: models, pages: pages, teachers: teachers) }
    }

    /// The model of a content `entry` of this cache, as `model(_:from:pages:teachers:)` reads it.
    static func model(of entry: ContentEntry, from models: ModelStore.Models, pages: PageTexts? = nil, teachers: KnownTeachers? = nil) -> (SourceModel.Model, [Diagnostic])? {
        guard case .unread = entry.payload else { return entry.decoded(teachers: teachers, pages: pages) }
        guard let range = entry.stored, let bytes = models.model(at: range, checksum: entry.storedChecksum) else { return nil }
        return ContentEntry.decode(bytes[...], teachers: teachers, pages: pages)
    }

    /// `<cache folder>/<hash of the site and output folders>.cache`; the models are in
    /// the store beside it (`.models`).
    static func file(in folder: String, site: URL, output: URL) -> String {
        let key = ContentHash.hex(Array((site.standardizedFileURL.path + "\n" + output.standardizedFileURL.path).utf8))
        return folder + "/" + key + ".cache"
    }

    /// The cache at `path`, or nil when there is none or it does not read back whole,
    /// with the changes written beside it since (`save`). Its models stay in the store,
    /// unread: a rebuild reads them all (`readModels`) or only the few it needs
    /// (`readModel`).
    static func load(from path: String) -> BuildCache? {
        guard var cache = readChecked(path, decode) else { return nil }
        cache.applyChanges(besides: path)
        return cache
    }

    /// The cache in the bytes of a cache file but its checksum, given that checksum; nil
    /// when they are of another format.
    static func decode(_ reader: inout BinaryReader, checksum: UInt64) throws(BinaryReader.Corrupt) -> BuildCache? {
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
        nextScheduled = changed.nextScheduled
        racyInputs = changed.racyInputs
        listsChecksum = changed.listsChecksum
        homeworkChecksum = changed.homeworkChecksum
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

    /// A file kept beside the cache file (the lists, the homework's keys): `format`, then
    /// what `encode` writes, checksummed. Returns the checksum, which the cache then names;
    /// nil when the file could not be written.
    static func writeBeside(_ path: String, format: String, reservingCapacity capacity: Int, _ encode: (inout BinaryWriter) -> Void) -> UInt64? {
        var writer = BinaryWriter(reservingCapacity: capacity)
        writer.string(format)
        encode(&writer)
        return writeChecked(&writer, to: path)
    }

    /// What `decode` reads of the file at `path` written by `writeBeside`, when it is of
    /// `format` and its checksum is `checksum` (the one the cache names; 0 for none).
    static func readBeside<Result>(_ path: String, format: String, checksum: UInt64,
                                   _ decode: (inout BinaryReader) throws(BinaryReader.Corrupt) -> Result) -> Result? {
        guard checksum != 0 else { return nil }
        return readChecked(path) { reader, stored throws(BinaryReader.Corrupt) -> Result? in
            guard stored == checksum, try reader.string() == format else { return nil }
            return try decode(&reader)
        }
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
        writer.integer(nextScheduled)
        writeHashes(racyInputs, &writer)
        writer.unsigned(listsChecksum)
        writer.unsigned(homeworkChecksum)
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
        nextScheduled = try reader.integer()
        racyInputs = try readHashes(&reader)
        listsChecksum = try reader.unsigned()
        homeworkChecksum = try reader.unsigned()
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
