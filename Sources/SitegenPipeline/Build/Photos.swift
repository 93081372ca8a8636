import Foundation
import SitegenContent
import SitegenFiles
import SitegenImages
import SitegenLocking
import SitegenSupport

/// Where the files made of photos are kept between builds, by the hash of a photo's bytes
/// and the settings they were made with (`PhotoKey`): a build makes only photos it has
/// not made before.
public protocol PhotoStore: Sendable {
    /// The files made of a photo before; nil when none are kept.
    func made(_ key: PhotoKey) -> StoredPhoto?
    /// Keeps what was made of a photo; nil when it could not be kept.
    func keep(_ made: MadePhoto, as key: PhotoKey) -> StoredPhoto?
    /// Forgets every photo but those of `keys`, the ones a whole build used.
    func prune(keeping keys: Set<PhotoKey>)
}

/// A photo's bytes and what it is made into, as a name for what was made.
public struct PhotoKey: Sendable, Hashable {
    public var text: String

    /// `isShown`: whether content shows the photo (it is made into its sizes, and into
    /// itself with `keep_originals`), or not (it is made into itself alone).
    public init(hash: UInt64, settings: ImageSettings, isShown: Bool) {
        var fingerprint = Fingerprint()
        fingerprint.add(settings.fingerprint)
        fingerprint.add(isShown ? "sizes" : "original")
        text = String(hash, radix: 16) + "-" + String(fingerprint.value, radix: 16)
    }
}

/// The files made of one photo, each where it is kept and with the hash of its bytes.
public struct StoredPhoto: Sendable {
    public enum File: Sendable {
        case kept(URL, hash: UInt64)
        case bytes([UInt8])
    }

    /// By `StoredPhoto.name(width:encoding:)`.
    public var files: [String: File]
    public var colour: String?

    public init(files: [String: File], colour: String?) {
        self.files = files
        self.colour = colour
    }

    /// What was made, held in memory (a build with no store).
    public init(_ made: MadePhoto) {
        var files: [String: File] = [:]
        for image in made.images { files[StoredPhoto.name(width: image.requestedWidth, encoding: image.encoding)] = .bytes(image.bytes) }
        self.init(files: files, colour: made.meanColour)
    }

    /// `640.webp`, or `original.jpg` for the photo at its own size.
    public static func name(width: Int?, encoding: ImageEncoding) -> String {
        (width.map(String.init) ?? "original") + "." + encoding.fileExtension
    }
}

/// The **photos** stage: each photo that content shows is made into its published sizes
/// and formats (`PhotoCandidates`), upright, in sRGB and without metadata; every other
/// photo file of Content/ is published at its own path without its metadata. Runs once the
/// models are validated, so that the views know each photo's colour.
public enum Photos {
    public struct Output: Sendable {
        /// The files made, by output path.
        public var files: [OutputFile] = []
        /// Each shown photo's mean colour, by its path in the site.
        public var colours: [String: String] = [:]
        /// The static files published here, not copied as they are.
        public var replaced: Set<String> = []
        /// How many photos were made now rather than found in the store.
        public var madeCount = 0
    }

    /// One photo to publish: its path, what it is, and where it is first shown (nil for a
    /// photo no content shows, published at its own path).
    struct Job: Sendable {
        var path: String
        var photo: PhotoFile?
        var usedAt: SourceLocation?
    }

    public static func run(_ content: SiteContent, settings: ImageSettings, staticFiles: [String], contentFolder: URL, store: (any PhotoStore)?,
                           staticHash: (String) -> UInt64?, log: DiagnosticLog) -> Output {
        // A build that fails already makes no photo: a photo its errors refused (one too
        // large to open) would be taken for one no content shows.
        guard !log.hasErrors else { return Output() }
        let jobs = self.jobs(content, staticFiles: staticFiles)
        guard !jobs.isEmpty else { return Output() }
        guard claimsAlone(jobs, settings: settings, staticFiles: staticFiles, log: log) else { return Output() }
        if let problem = PhotoMaker.libraryProblem() {
            let job = jobs.first { $0.usedAt != nil } ?? jobs[0]
            let location = job.usedAt ?? SourceLocation(path: "Content/" + job.path, line: 1, column: 1)
            let more = jobs.count > 1 ? " (and \(jobs.count - 1) more)" : ""
            log.error(at: location, "image '\(job.path)'\(more) must be published through libvips, found that \(problem): install it (sudo apt install libvips42 on Debian 12 and Ubuntu 22.04, libvips42t64 on later ones) (docs/photos.md)")
            return Output()
        }
        let results = publishAll(jobs, settings: settings, contentFolder: contentFolder, store: store ?? HeldPhotos(), staticHash: staticHash)
        var output = Output()
        var keys: Set<PhotoKey> = []
        var failed = false
        for (job, result) in zip(jobs, results) {
            switch result {
            case .refused(let message):
                failed = true
                log.error(at: job.usedAt ?? SourceLocation(path: "Content/" + job.path, line: 1, column: 1), message)
            case .failed(let reason):
                failed = true
                let location = job.usedAt ?? SourceLocation(path: "Content/" + job.path, line: 1, column: 1)
                log.error(at: location, "image '\(job.path)' must be a photo sitegen can read, found one libvips could not: \(reason). Save it again from a photo editor, or replace it (docs/photos.md)")
            case .copied:
                continue
            case .published(let files, let colour, let made, let key):
                keys.insert(key)
                output.files += files
                output.replaced.insert(job.path)
                if made { output.madeCount += 1 }
                if job.photo != nil, let colour { output.colours[job.path] = colour }
            }
        }
        if !failed { store?.prune(keeping: keys) }
        return output
    }

    /// Each job's result, in order. The same bytes at two paths are made once: the first of
    /// them is made, and the others find it in the store, in turn.
    private static func publishAll(_ jobs: [Job], settings: ImageSettings, contentFolder: URL, store: any PhotoStore,
                                   staticHash: (String) -> UInt64?) -> [Result] {
        // A build without a cache knows no hashes, and reads them.
        let known = jobs.map { staticHash($0.path) }
        let read = parallelMap(Array(jobs.indices)) { index in
            known[index] ?? (jobs[index].photo != nil || settings.stripMetadata
                ? FileReader.read(contentFolder.appendingPathComponent(jobs[index].path).path).map(ContentHash.value) : nil)
        }
        let hashes = Dictionary(zip(jobs, read).compactMap { job, hash in hash.map { (job.path, $0) } }, uniquingKeysWith: { first, _ in first })
        var groups: [[Int]] = []
        var groupOf: [PhotoKey: Int] = [:]
        for (index, job) in jobs.enumerated() {
            guard let hash = hashes[job.path] else { groups.append([index]); continue }
            let key = PhotoKey(hash: hash, settings: settings, isShown: job.photo != nil)
            if let group = groupOf[key] {
                groups[group].append(index)
            } else {
                groupOf[key] = groups.count
                groups.append([index])
            }
        }
        let published = parallelMap(groups) { group in
            group.map { publish(jobs[$0], settings: settings, contentFolder: contentFolder, store: store, staticHash: hashes[jobs[$0].path]) }
        }
        var results = [Result](repeating: .copied, count: jobs.count)
        for (group, groupResults) in zip(groups, published) {
            for (index, result) in zip(group, groupResults) { results[index] = result }
        }
        return results
    }

    /// Whether every file the shown photos make has one photo to make it and is no file of
    /// Content/ (`a.jpg` and `a.png` would both make `a-320w.webp`); else an error at each
    /// photo that claims another's.
    static func claimsAlone(_ jobs: [Job], settings: ImageSettings, staticFiles: [String], log: DiagnosticLog) -> Bool {
        let statics = Set(staticFiles)
        var makers: [String: String] = [:]
        var alone = true
        // In the order they are named: the error is at the later one.
        let shown = jobs.compactMap { job in job.photo.flatMap { photo in job.usedAt.map { (job, photo, $0) } } }.sorted { $0.2 < $1.2 }
        for (job, photo, location) in shown {
            for candidate in PhotoCandidates(path: job.path, photo: photo, settings: settings).candidates {
                if statics.contains(candidate.path) {
                    log.error(at: location, "image '\(job.path)' must make files of its own, found Content/\(candidate.path) where its \(candidate.width)-pixel \(candidate.encoding.rawValue) goes: rename one of them (docs/photos.md)")
                    alone = false
                    break
                }
                if let other = makers[candidate.path], other != job.path {
                    log.error(at: location, "image '\(job.path)' must make files of its own, found that '\(other)' makes \(candidate.path) too: rename one of them (docs/photos.md)")
                    alone = false
                    break
                }
                makers[candidate.path] = job.path
            }
        }
        return alone
    }

    /// The colours of the photos a build of only some pages shows, looked up in the store
    /// as they are asked for; nil when a photo the edited models show was never made (one
    /// new to the site), and the whole site is to be built instead.
    public static func colours(showing edited: [SourceModel.Model], staticFiles: [String], settings: ImageSettings, store: (any PhotoStore)?,
                               staticHash: (String) -> UInt64?) -> PhotoColours? {
        var hashes: [String: UInt64] = [:]
        for path in staticFiles where PhotoFile.hasPhotoExtension(path) {
            if let hash = staticHash(path) { hashes[path] = hash }
        }
        let key: @Sendable (String) -> PhotoKey? = { [hashes] path in
            hashes[path].map { PhotoKey(hash: $0, settings: settings, isShown: true) }
        }
        var content = SiteContent()
        for model in edited {
            switch model {
            case .article(let article): content.articles.append(article)
            case .page(let page): content.pages.append(page)
            case .assignment(let assignment): content.assignments.append(assignment)
            case .none: break
            }
        }
        for job in jobs(content, staticFiles: []) {
            guard let store, let key = key(job.path), store.made(key) != nil else { return nil }
        }
        guard let store else { return PhotoColours() }
        return PhotoColours { path in key(path).flatMap { store.made($0)?.colour } }
    }

    /// The photos the content shows, each once at its first place, then the other photo
    /// files of Content/.
    static func jobs(_ content: SiteContent, staticFiles: [String]) -> [Job] {
        var shown: [String: Job] = [:]
        func add(_ image: ResolvedImage?) {
            guard let image, let photo = image.photo, case .site(let path) = image.location else { return }
            if let known = shown[path], let at = known.usedAt, let new = image.usedAt, at <= new { return }
            shown[path] = Job(path: path, photo: photo, usedAt: image.usedAt)
        }
        for article in content.articles {
            add(article.cover)
            article.subContents.forEach { add($0.image) }
            article.photos.forEach(add)
        }
        content.pages.forEach { $0.photos.forEach(add) }
        content.assignments.forEach { $0.photos.forEach(add) }
        let loose = staticFiles.filter { shown[$0] == nil && PhotoFile.hasPhotoExtension($0) }
        return shown.values.sorted { $0.path < $1.path } + loose.map { Job(path: $0, photo: nil, usedAt: nil) }
    }

    enum Result: Sendable {
        case published([OutputFile], colour: String?, made: Bool, key: PhotoKey)
        /// A file that is no still photo after all (an animation), or one the site publishes
        /// with its metadata: published as it is.
        case copied
        /// Larger than the site lets sitegen open: the error, whole.
        case refused(String)
        /// What libvips said.
        case failed(String)
    }

    private static func publish(_ job: Job, settings: ImageSettings, contentFolder: URL, store: any PhotoStore, staticHash: UInt64?) -> Result {
        let source = contentFolder.appendingPathComponent(job.path)
        // The photo at its own size: every photo no content shows, and with `keep_originals`
        // the shown ones too; made again without metadata, or else published as it is.
        let publishesOriginal = job.photo == nil || settings.keepOriginals
        if job.photo == nil, !settings.stripMetadata { return .copied }
        var bytes: [UInt8]?
        let photo: PhotoFile
        if let shown = job.photo {
            photo = shown
        } else {
            // A photo no content shows: what it is from its bytes, and the site's limits.
            guard let read = FileReader.read(source.path) else { return .failed("the file could not be read") }
            guard case .size(let width, let height) = ImageSize.read(read), let found = PhotoFile(header: read, width: width, height: height) else { return .copied }
            if let error = settings.limitError(found, bytes: read.count, file: job.path) { return .refused(error) }
            (photo, bytes) = (found, read)
        }
        let candidates = PhotoCandidates(path: job.path, photo: photo, settings: settings)
        let original: PhotoCandidate? = publishesOriginal && settings.stripMetadata
            ? PhotoCandidate(path: job.path, width: photo.width, height: photo.height, encoding: photo.encoding) : nil
        guard let hash = staticHash ?? (bytes ?? FileReader.read(source.path)).map(ContentHash.value) else { return .failed("the file could not be read") }
        let key = PhotoKey(hash: hash, settings: settings, isShown: job.photo != nil)
        var made = false
        var stored = store.made(key)
        if stored == nil {
            guard let read = bytes ?? FileReader.read(source.path) else { return .failed("the file could not be read") }
            let sizes = candidates.of(candidates.fallback).map { PhotoSize(width: $0.width, height: $0.height) }
            let order = PhotoOrder(sizes: job.photo == nil ? [] : sizes,
                                   encodings: job.photo == nil ? [] : (candidates.offered + [candidates.fallback]),
                                   original: original?.encoding, quality: settings.quality)
            do {
                let photo = try PhotoMaker.make(read, size: PhotoSize(width: photo.width, height: photo.height), order: order)
                stored = store.keep(photo, as: key) ?? StoredPhoto(photo)
                made = true
            } catch {
                return .failed(error.reason)
            }
        }
        guard let stored else { return .failed("the files made of it could not be kept") }
        var files: [OutputFile] = []
        let wanted = (job.photo == nil ? [] : candidates.candidates).map { ($0, Int?.some($0.width)) } + (original.map { [($0, nil)] } ?? [])
        for (candidate, width) in wanted {
            guard let file = stored.files[StoredPhoto.name(width: width, encoding: candidate.encoding)] else {
                return .failed("libvips made no \(candidate.encoding.rawValue) of it")
            }
            let contents: OutputFile.Contents = switch file {
            case .kept(let url, let hash): .copy(url, hash: hash)
            case .bytes(let bytes): .bytes(bytes)
            }
            files.append(OutputFile(path: candidate.path, contents: contents))
        }
        if publishesOriginal, original == nil {
            files.append(OutputFile(path: job.path, contents: .copy(source, hash: staticHash)))
        }
        return .published(files, colour: stored.colour, made: made, key: key)
    }
}

/// The photos made by a build with no store, held for the rest of that build: the same
/// bytes at another path take them.
private final class HeldPhotos: PhotoStore {
    private let photos = Locked<[PhotoKey: StoredPhoto]>([:])

    func made(_ key: PhotoKey) -> StoredPhoto? {
        photos.withLock { $0[key] }
    }

    func keep(_ made: MadePhoto, as key: PhotoKey) -> StoredPhoto? {
        let stored = StoredPhoto(made)
        photos.withLock { $0[key] = stored }
        return stored
    }

    func prune(keeping keys: Set<PhotoKey>) {}
}
