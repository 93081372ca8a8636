import Foundation
import SitegenContent
import SitegenFiles
import SitegenPipeline
import SitegenSupport

/// The build cache as a build's reuse: what the last build of the same site into the same
/// output left, read from the cache file beside it (a command's), or kept in memory
/// between the builds of one process (`BuildMemory`, a server's). One is made for each
/// build, which asks its questions one after the other (`BuildReuse`).
public final class CachedBuild: BuildReuse {
    /// The cache file; a server writes it only after its first build.
    let file: String?
    /// Where the files made of the site's photos are kept (`photoFolder(for:)`).
    let photoFolder: String?
    let memory: BuildMemory?
    /// The paths a server's watcher saw change since its last build.
    let changedPaths: [String]?

    var request: BuildRequest!
    var tree: SourceTree?
    var settings: BuildSettings!
    /// The cache being read, and whether the output was found as it says, both looked at
    /// while the site's folders are walked.
    var loading: Concurrently<(cache: BuildCache?, outputIsAsLeft: Concurrently<Bool>?)>?
    var listings: (file: String, known: FolderListings)?
    /// A server's cache, its models decoded.
    var remembered: BuildCache?
    /// A server's last good build, taken to start this one from; given back when the build
    /// does not replace it.
    var warm: WarmBuild?
    /// The cache this build's answers come from: one made with the same options and tools.
    var previous: BuildCache?
    var candidate: BuildCache?
    /// Inputs whose stamps were too recent to trust and whose bytes changed (`racyChanges`).
    var racy: Set<String> = []
    var signature = ""
    var contextHash: UInt64 = 0
    var staticHashes: [String: UInt64] = [:]
    /// Each Markdown file's cache entry, by position in the tree (`models(of:context:)`).
    var slots: [BuildCache.ContentEntry?] = []
    /// Whether the output holds no pages to read articles' HTML from.
    var pagesGone = false
    var pageTexts: PageTexts?
    var edit: EditScope?
    var rendering: PagesMade?

    /// A command's reuse of the cache of `options`, whose file is in the folder they name;
    /// nil when they use no cache.
    public static func reusing(_ options: BuildOptions) -> CachedBuild? {
        BuildCache.file(for: options).map { CachedBuild(file: $0, photos: BuildCache.photoFolder(for: options), memory: nil, changed: nil) }
    }

    /// Where build caches are kept unless `--cache-dir` says otherwise.
    public static var defaultFolder: String { CacheFolder.standard }

    /// A server's: its cache is in `memory`, and the files at `changed` changed since its
    /// last build.
    public convenience init(options: BuildOptions, memory: BuildMemory, changed: [String]?) {
        self.init(file: BuildCache.file(for: options), photos: BuildCache.photoFolder(for: options), memory: memory, changed: changed)
    }

    init(file: String?, photos: String?, memory: BuildMemory?, changed: [String]?) {
        self.file = file
        photoFolder = photos
        self.memory = memory
        changedPaths = changed
    }

    /// A server's last good build goes back as it was when this build made nothing of it
    /// (it changed nothing, or an edited file has errors).
    deinit {
        if let memory, let warm { memory.keep(warm) }
    }

    /// Leaves a server's last good build: this one starts from its cache.
    func dropWarm() {
        guard let memory, let warm else { return }
        memory.keep(cacheOnly: warm.cache)
        remembered = warm.cache
        self.warm = nil
        // Its index is let go on another core: freed value by value, it held up the build
        // that starts now by some 30 ms on the large corpus.
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(warm) {} }
    }

    public func sources(for request: BuildRequest) -> KnownSources {
        self.request = request
        if let memory {
            if let changedPaths, let warm = memory.takeWarm() {
                self.warm = warm
                // Changed settings or templates make a whole build, from the tree as the
                // watcher says it changed: not walked again, so that a mistake in them is
                // shown at once.
                if let (tree, settings) = warm.tree(updatedBy: changedPaths) {
                    if settings { dropWarm() }
                    return .tree(tree)
                }
                dropWarm()
            }
            remembered = memory.cache
        }
        // The last cache is read while the site's folders are walked, and the output checked
        // against it, which a rebuild with little or nothing changed needs: the check goes on
        // while such a rebuild parses and renders what changed, and is waited for before it
        // writes anything (a full build does not wait for it).
        if remembered == nil, let file {
            let root = request.outputURL.path
            loading = Concurrently {
                let cache = BuildCache.load(from: file)
                return (cache, cache.map { cache in Concurrently { cache.outputIsAsLeft(in: root) } })
            }
        }
        // Folders that did not change since the last build are not read again; the listings
        // are kept for the next one when any was.
        guard let file else { return .listings(FolderListings()) }
        let listingsFile = FolderListings.path(besides: file)
        listings = (listingsFile, FolderListings.load(from: listingsFile))
        return .listings(listings!.known)
    }

    public func changes(in tree: SourceTree, settings: BuildSettings, walked: Bool) -> SourceChanges {
        self.tree = tree
        self.settings = settings
        if walked, let listings, tree.listings != listings.known { tree.listings.save(to: listings.file) }
        if let warm {
            guard settings.moment == warm.index.moment, settings.clock < warm.index.nextScheduled ?? .max, let edited = warm.edited(in: tree) else {
                dropWarm()
                return changesFromCache(tree, settings: settings)
            }
            previous = warm.cache
            signature = warm.cache.signature
            contextHash = warm.contextHash
            staticHashes = warm.cache.staticHashes
            return edited.isEmpty ? .none(warm.report) : .edited(edited)
        }
        return changesFromCache(tree, settings: settings)
    }

    private func changesFromCache(_ tree: SourceTree, settings: BuildSettings) -> SourceChanges {
        let loaded = loading?.wait()
        candidate = remembered ?? loaded?.cache
        signature = [BuildCache.format, settings.signature].joined(separator: "|")
        // The cache answers only for the same sitegen, options and Leaflet. A cache made at
        // another moment keeps its models; the pages that show the moment have it in their
        // fingerprints.
        previous = candidate?.signature == signature ? candidate : nil
        // Files whose stamps were too recent to trust are told by their bytes.
        racy = previous?.racyChanges(in: tree) ?? []
        let changedInputs = previous?.inputsChanged(in: tree, upTo: EditScope.limit, racy: racy)
        // The last build's pages show this moment: only then can they all be as they are,
        // or only the edited articles' pages change.
        // A scheduled article whose time has come makes it another moment too.
        let sameMoment = previous?.moment == settings.moment.key && settings.clock < previous?.nextScheduled ?? .max
        if var previous, sameMoment, changedInputs?.isEmpty == true, outputIsAsLeft(previous) {
            // Inputs found unchanged by their bytes whose stamps are settled now are not read
            // again by the next build.
            if memory == nil, let file, previous.settleRacyInputs(in: tree) { previous.save(to: file) }
            return .none(previous.report)
        }
        var context = Fingerprint()
        context.add(signature)
        context.add(tree.siteYAML ?? [])
        context.add(tree.teachersYAML ?? [])
        // Static files by their bytes, not their stamps: a fresh clone (a CI machine with the
        // cache restored) or a `touch` changes every stamp and none of the models.
        staticHashes = BuildCache.staticHashes(of: tree, known: previous, racy: racy)
        for path in tree.staticFiles {
            context.add(path)
            context.add(staticHashes["Content/" + path] ?? 0)
        }
        contextHash = context.value
        if previous?.contextHash != contextHash { previous?.content = ContentTable() }
        if memory == nil, let file, let previous, previous.contextHash == contextHash, sameMoment, let changedInputs,
           let edit = EditScope(previous, changed: changedInputs, tree: tree, cacheFile: file) {
            self.edit = edit
            return .edited(edit.files)
        }
        return .unknown
    }

    /// Whether the output is as `cache` has it, as the check begun with the cache's load
    /// found it, or as it is found now.
    func outputIsAsLeft(_ cache: BuildCache) -> Bool {
        loading?.wait().outputIsAsLeft?.wait() ?? cache.outputIsAsLeft(in: request.outputURL.path)
    }

    public func models(of tree: SourceTree, context: ModelContext) -> [KnownModel?] {
        // A server has its models in memory; a command reads them now.
        if remembered == nil, warm == nil, let file, previous?.content.isEmpty == false { previous!.readModels(besides: file) }
        slots = previous?.content.entries(for: tree.markdown) ?? Array(repeating: nil, count: tree.markdown.count)
        // The cache leaves an article's HTML in its page. With no pages to read it from
        // (`rm -rf Output`, a CI machine with the cache restored) the articles stored so do
        // not decode, and are made again, on both cores, as in a first build (not one by one
        // as pages ask); this build stores their HTML in full, for the next without pages.
        pagesGone = previous != nil && OutputStaging.holdsNoPages(request.outputURL.path)
        pageTexts = pagesGone ? nil : previous.map { PageTexts(output: request.outputURL.path, cache: $0, tree: tree, context: context) }
        let teachers = KnownTeachers(settings.teachers)
        let (slots, pages) = (slots, pageTexts)
        // A source whose stamp changed keeps its model when its bytes did not.
        let racy = racy
        return parallelMap(Array(tree.markdown.indices), inRunsOf: 64) { index -> KnownModel? in
            guard let entry = slots[index], let (model, diagnostics) = entry.decoded(teachers: teachers, pages: pages) else { return nil }
            let isCurrent = entry.stamp == tree.markdown[index].stamp && (racy.isEmpty || !racy.contains("Content/" + tree.markdown[index].contentPath))
            return KnownModel(SourceModel(model: model, diagnostics: diagnostics, hash: entry.hash), isCurrent: isCurrent)
        }
    }

    public func scope(_ edited: [EditedSource], in build: ScopeRequest) -> ScopedBuild? {
        if warm != nil { return warmScope(edited, in: build) }
        return edit?.scope(edited, in: build, options: request.options, outputURL: request.outputURL)
    }

    public var lastOutput: LastOutput? {
        guard let previous else { return nil }
        if edit != nil || warm != nil { return LastOutput(files: previous.outputs, folders: previous.folders, isAsLeft: false) }
        let foundAsLeft = remembered == nil && loading?.wait().outputIsAsLeft?.wait() == true
        return LastOutput(files: previous.outputs, folders: previous.folders, isAsLeft: foundAsLeft)
    }

    public var photoStore: (any PhotoStore)? { photoFolder.map { PhotoFolder(root: $0) } }

    /// The store of the site's made photos, for a command that builds without a cache of
    /// pages (`sitegen check`).
    public static func photoStore(for options: BuildOptions) -> (any PhotoStore)? {
        BuildCache.photoFolder(for: options).map { PhotoFolder(root: $0) }
    }

    public func staticHash(of path: String) -> UInt64? { staticHashes["Content/" + path] }

    public func formats(for language: LanguageTag) -> Formats? {
        let formats = Formats(language: language)
        if let facts = (previous ?? candidate)?.formatFacts { formats.learn(facts) }
        return formats
    }
}

extension BuildCache {
    /// What the build that made this cache reported.
    var report: BuildReport {
        var report = BuildReport()
        report.diagnostics = diagnostics
        report.pageCount = pageCount
        report.fileCount = fileCount
        report.unchangedCount = fileCount
        report.nextScheduled = nextScheduled == .max ? nil : nextScheduled
        return report
    }

    /// Whether every file of the output is as this cache has it written and no folder of it
    /// changed (a file put there by someone else is removed by a build).
    func outputIsAsLeft(in root: String) -> Bool {
        OutputWriter.isAsLeft(outputs, folders: folders, in: root)
    }

    /// The cache file of the site and output of `options`, in their cache folder; nil when
    /// they use none.
    /// The folder of the files made of the site's photos, in the cache folder: one per site,
    /// shared by its builds into any output and by `serve`, since what is made of a photo
    /// depends only on its bytes and the settings.
    static func photoFolder(for options: BuildOptions) -> String? {
        guard options.useCache else { return nil }
        let source = URL(fileURLWithPath: options.source).standardizedFileURL.path
        return (options.cacheFolder ?? CacheFolder.standard) + "/" + ContentHash.hex(Array(source.utf8)) + ".photos"
    }

    static func file(for options: BuildOptions) -> String? {
        guard options.useCache else { return nil }
        let source = URL(fileURLWithPath: options.source)
        return file(in: options.cacheFolder ?? CacheFolder.standard, site: source,
                    output: URL(fileURLWithPath: options.output ?? source.appendingPathComponent("Output").path))
    }
}
