import Dispatch
import Foundation
import SitegenContent
import SitegenFiles
import SitegenMustache
import SitegenSupport
import SitegenYAML
import Synchronization

/// The build pipeline: load → parse → validate → index → render → write. Each stage
/// takes values and returns values; nothing is written until every page is rendered,
/// so a failed build leaves the output folder as it was.
public enum SiteBuilder {
    /// `changed`: the paths a watcher saw change since the last build of `memory`; with
    /// them the build may start from that build instead of from the folders.
    public static func build(_ options: BuildOptions, memory: BuildMemory? = nil, changed: [String]? = nil, progress: @Sendable (String) -> Void = { _ in }) -> BuildReport {
        if let memory, let changed, var warm = memory.takeWarm() {
            progress("Rebuilding")
            switch QuickRebuild.attempt(&warm, options: options, changed: changed) {
            case .rebuilt:
                memory.keep(warm)
                return warm.report
            case .failed(let report):
                memory.keep(warm)
                return report
            case .needsFullBuild:
                // What it did to the cache is true of the files; the full build starts from it.
                memory.keep(cacheOnly: warm.cache)
            }
        }
        let cacheFile = options.useCache ? BuildCache.file(in: options.cacheFolder ?? BuildCache.defaultFolder, site: URL(fileURLWithPath: options.source),
                                                          output: URL(fileURLWithPath: options.output ?? URL(fileURLWithPath: options.source).appendingPathComponent("Output").path))
                                         : nil
        var prepared = prepare(options, progress: progress, cacheFile: cacheFile, stagesPages: true, memory: memory)
        defer {
            prepared.staging?.remove()
            if options.leavesMemoryToExit { ProcessLifetime.keep(prepared) }
        }
        var report = prepared.report
        guard report.succeeded, !prepared.nothingChanged, let outputURL = prepared.outputURL, prepared.files != nil else { return report }
        progress("Writing")
        let result: OutputWriter.Result
        do {
            result = try OutputWriter.write(prepared.files!, to: outputURL, previous: prepared.previousOutputs, previousFolders: prepared.previousFolders,
                                            removingStale: !prepared.isPartial, outputIsAsLeft: prepared.outputIsAsLeft, staging: prepared.staging)
        } catch {
            report.commandError = "cannot write \(outputURL.path): \(error)"
            prepared.storingModels?.wait()?.discard()
            _ = prepared.writingLists?.wait()
            return report
        }
        report.byteCount = result.bytesWritten
        if prepared.isPartial {
            report.writtenCount = result.written
            report.unchangedCount = report.fileCount - result.written
        } else {
            report.fileCount = prepared.files!.count
            report.writtenCount = result.written
            report.unchangedCount = result.unchanged
            report.removedCount = result.removed
        }
        // The pages are no longer needed: memory goes to the cache instead. Nor are the
        // last build's tables: while they are held, changing the cache's copies them. A
        // command leaves the pages to its exit: freed here, they would be the only work of
        // the end of a first build.
        if options.leavesMemoryToExit, let files = prepared.files { ProcessLifetime.keep(files) }
        prepared.files = nil
        prepared.previousOutputs = PathTable()
        let previousFolders = prepared.previousFolders
        prepared.previousFolders = PathTable()
        // Taken out, so that its tables are changed in place rather than copied.
        if var cache = prepared.cache.take() {
            // A command looks at the output's folders on another core while the rest of the
            // cache, which goes before them, is written.
            var folderTimes: Concurrently<PathTable<Int64>>?
            if let edits = prepared.edits {
                cache.take(edits)
                if let writing = prepared.writingLists { cache.listsChecksum = writing.wait() ?? 0 }
                let folders = OutputWriter.folderTimes(of: result.manifest.keys, in: outputURL.path)
                cache.outputs.merge(result.manifest)
                cache.folders.merge(folders)
                cache.changes.outputs.formUnion(result.manifest.keys)
                cache.changes.folders.formUnion(folders.keys)
            } else {
                cache.outputs = PathTable(result.manifest)
                // Only the folders where files were written or removed can have new times
                // when the output was found as left.
                let (manifest, changed, root) = (result.manifest, result.changedPaths, outputURL.path)
                let times: @Sendable () -> PathTable<Int64> = {
                    if let changed { return OutputWriter.folderTimes(previousFolders, updatedAlong: changed, in: root) }
                    return PathTable(OutputWriter.folderTimes(of: manifest.keys, in: root))
                }
                if memory == nil, cacheFile != nil {
                    folderTimes = Concurrently(times)
                } else {
                    cache.folders = times()
                }
                cache.listsChecksum = prepared.writingLists?.wait() ?? 0
            }
            cache.diagnostics = report.diagnostics
            cache.pageCount = report.pageCount
            cache.fileCount = report.fileCount
            // A long-running process keeps the cache in memory, models decoded, and writes
            // it to disk only once; a command writes it every time.
            let firstInMemory = memory.map { $0.keep(cache) } ?? true
            if let cacheFile, firstInMemory {
                progress("Caching")
                cache.save(to: cacheFile, stored: prepared.storingModels?.wait(), folders: folderTimes)
            }
            if let memory, var warm = prepared.warm {
                warm.report = report
                warm.cache = cache
                memory.keep(warm)
            }
            if options.leavesMemoryToExit {
                ProcessLifetime.keep(cache)
                if let folderTimes { ProcessLifetime.keep(folderTimes) }
            }
        }
        return report
    }

    /// Where build caches are kept unless `--cache-dir` says otherwise.
    public static var defaultCacheFolder: String { BuildCache.defaultFolder }

    /// Everything a build does but writing: what `sitegen check` looks at.
    struct Prepared {
        var report: BuildReport
        var outputURL: URL?
        var files: [OutputFile]?
        var index: SiteIndex?
        /// The cache to save once the files are written (its output manifest still to fill in).
        var cache: BuildCache?
        var previousOutputs = PathTable<OutputManifest.Entry>()
        var previousFolders = PathTable<Int64>()
        /// True when every file and folder of the output was found as `previousOutputs` and
        /// `previousFolders` have them, at the start of the build: the writer need not look
        /// at them again, and only the folders it changes have new times.
        var outputIsAsLeft = false
        /// True when the cache shows no input changed and the output is intact.
        var nothingChanged = false
        var staging: OutputStaging?
        /// What a long-running process keeps to start its next build from (its report and
        /// cache filled in once the files are written).
        var warm: WarmBuild?
        /// The models being added to the cache's store while the pages are rendered.
        var storingModels: Concurrently<ModelStore.Saved?>?
        /// The lists of this build being written beside the cache (`SiteLists`): their
        /// checksum, or nil when they could not be.
        var writingLists: Concurrently<UInt64?>?
        /// Set when `files` are only the files that may have changed (`EditedArticles`):
        /// the rest of the output stays as it is, and the cache, as it was read, takes these.
        var edits: EditedArticles.Edits?

        var isPartial: Bool { edits != nil }
    }

    static func prepare(_ options: BuildOptions, progress: @Sendable (String) -> Void, cacheFile: String? = nil, stagesPages: Bool = false, memory: BuildMemory? = nil) -> Prepared {
        var report = BuildReport()
        let sourceURL = URL(fileURLWithPath: options.source).standardizedFileURL
        let outputURL = URL(fileURLWithPath: options.output ?? sourceURL.appendingPathComponent("Output").path).standardizedFileURL
        report.outputPath = options.output ?? (options.source == "." ? "Output/" : sourceURL.appendingPathComponent("Output").path + "/")
        if let problem = OutputWriter.refusal(output: outputURL, source: sourceURL) {
            report.commandError = problem
            return Prepared(report: report)
        }
        var baseURLOverride: WebURL?
        if let text = options.baseURL {
            guard let url = WebURL(text), Site.isPublishingAddress(url) else {
                report.commandError = "--base-url must be \(Site.publishingAddress), found '\(text)'"
                return Prepared(report: report)
            }
            baseURLOverride = url
        }
        var requestedMoment: BuildMoment?
        if let text = options.today {
            guard let moment = BuildMoment(parsing: text) else {
                report.commandError = "--today must be a date like 2026-03-10 or a date and time like 2026-03-10T13:30, found '\(text)'"
                return Prepared(report: report)
            }
            requestedMoment = moment
        }
        guard FileManager.default.fileExists(atPath: sourceURL.appendingPathComponent("Content/site.yaml").path) else {
            report.commandError = "no site at \(options.source): expected Content/site.yaml (run 'sitegen init' to start one)"
            return Prepared(report: report)
        }
        // The last cache is read while the site's folders are walked, and the output
        // checked against it, which a rebuild with little or nothing changed needs: the
        // check goes on while such a rebuild parses and renders what changed, and is
        // waited for before it writes anything (a full build does not wait for it).
        let remembered = memory?.cache
        let loading = remembered == nil ? cacheFile.map { file in
            Concurrently { () -> (cache: BuildCache?, outputIsAsLeft: Concurrently<Bool>?) in
                let cache = BuildCache.load(from: file)
                return (cache, cache.map { cache in Concurrently { SiteBuilder.outputIsAsLeft(cache, in: outputURL.path) } })
            }
        } : nil

        progress("Reading")
        // Folders that did not change since the last build are not read again; the
        // listings are kept for the next one when any was.
        let listingsFile = cacheFile.map(FolderListings.path(besides:))
        let knownListings = listingsFile.map(FolderListings.load(from:)) ?? FolderListings()
        let tree = SourceTree.load(siteRoot: sourceURL, known: knownListings)
        if let listingsFile, tree.listings != knownListings { tree.listings.save(to: listingsFile) }
        if options.leavesMemoryToExit { ProcessLifetime.keep(tree) }
        let loaded = loading?.wait()
        let candidate = remembered ?? loaded?.cache
        let log = DiagnosticLog()
        tree.problems.forEach(log.add)

        progress("Parsing")
        let settings = Parse.settings(tree, log: log)
        var site = Site(node: settings.site, isReadable: settings.siteIsReadable, log: log)
        if let baseURLOverride {
            site.baseURL = baseURLOverride
            site.lacksBaseURL = false
        }
        let teachers = Teacher.all(from: settings.teachers, site: site, log: log)
        report.basePath = site.basePath
        let moment = BuildMoment.seen(requested: requestedMoment, clock: options.clock, by: site)
        if requestedMoment == nil { report.momentChanges = moment.nextChange(releaseTime: site.homework.releaseTime, in: site.timeZone) }
        let chosenLeaflet = site.leafletFolder.map { LeafletFiles.folder($0.hasPrefix("/") ? $0 : sourceURL.appendingPathComponent($0).path) } ?? options.leaflet
        let leaflet = chosenLeaflet?.files

        // The cache answers only for the same sitegen, options and Leaflet. A cache made at
        // another moment keeps its models; the pages that show the moment have it in their
        // fingerprints.
        let signature = [BuildCache.format, options.toolIdentity, "drafts=\(options.drafts)", "strict=\(options.strict)",
                         "base=\(options.baseURL ?? "")", "leaflet=\(chosenLeaflet?.signature ?? "none")"].joined(separator: "|")
        var previous = candidate?.signature == signature ? candidate : nil
        // Files whose stamps were too recent to trust are told by their bytes.
        let racyChanged = previous?.racyChanges(in: tree) ?? []
        let changedInputs = previous?.inputsChanged(in: tree, upTo: EditedArticles.limit, racy: racyChanged)
        let outputIsAsLeft = { (cache: BuildCache) in loaded?.outputIsAsLeft?.wait() ?? SiteBuilder.outputIsAsLeft(cache, in: outputURL.path) }
        // The last build's pages show this moment: only then can they all be as they are,
        // or only the edited articles' pages change.
        let sameMoment = previous?.moment == moment.key
        // Nothing to do when no input changed and the output is as left.
        if var previous, sameMoment, changedInputs?.isEmpty == true, outputIsAsLeft(previous) {
            // Inputs found unchanged by their bytes whose stamps are settled now are not
            // read again by the next build.
            if memory == nil, let cacheFile, previous.settleRacyInputs(in: tree) { previous.save(to: cacheFile) }
            report.diagnostics = previous.diagnostics
            report.pageCount = previous.pageCount
            report.fileCount = previous.fileCount
            report.unchangedCount = previous.fileCount
            return Prepared(report: report, outputURL: outputURL, cache: previous, nothingChanged: true)
        }
        var context = Fingerprint()
        context.add(signature)
        context.add(tree.siteYAML ?? [])
        context.add(tree.teachersYAML ?? [])
        // Static files by their bytes, not their stamps: a fresh clone (a CI machine with
        // the cache restored) or a `touch` changes every stamp and none of the models.
        let staticHashes = BuildCache.staticHashes(of: tree, known: previous, racy: racyChanged)
        for path in tree.staticFiles {
            context.add(path)
            context.add(staticHashes["Content/" + path] ?? 0)
        }
        if previous?.contextHash != context.value { previous?.content = ContentTable() }
        if let facts = previous?.formatFacts { Formats.of(site.language).learn(facts) }
        if memory == nil, let cacheFile, let last = previous, last.contextHash == context.value, sameMoment, let changedInputs,
           let edit = EditedArticles(last, changed: changedInputs, tree: tree, site: site, teachers: teachers, cacheFile: cacheFile) {
            progress("Validating")
            if var rebuilt = edit.rebuild(moment: moment, options: options, leaflet: leaflet, outputURL: outputURL,
                                           outputIsAsLeft: { outputIsAsLeft(last) }) {
                rebuilt.report.outputPath = report.outputPath
                rebuilt.report.basePath = report.basePath
                rebuilt.report.momentChanges = report.momentChanges
                return rebuilt
            }
        }
        // A long-running process has its models in memory; a command reads them now.
        if remembered == nil, let cacheFile, previous?.content.isEmpty == false { previous!.readModels(besides: cacheFile) }

        progress("Validating")
        let modelContext = Validate.context(site: site, teachers: teachers, tree: tree)
        // Each source's entry, in the tree's order: the cached one when its file did not
        // change, else a new one. Kept in an array, not dictionaries of every path built and
        // read again.
        var slots: [BuildCache.ContentEntry?] = previous?.content.entries(for: tree.markdown) ?? Array(repeating: nil, count: tree.markdown.count)
        let stale = tree.markdown.indices.filter {
            slots[$0]?.stamp != tree.markdown[$0].stamp || (!racyChanged.isEmpty && racyChanged.contains("Content/" + tree.markdown[$0].contentPath))
        }
        // A source whose stamp changed but whose bytes did not keeps its model.
        let made = Validate.models(stale.map { tree.markdown[$0] }, reusing: stale.map { slots[$0] }, tree: tree, context: modelContext)
        for (index, result) in zip(stale, made) {
            slots[index] = result.entry
        }
        // Cached models are decoded on both cores; one that does not read back is built anew.
        let cached = slots
        let encoded = slots.indices.filter { index in
            if case .encoded = cached[index]?.payload { true } else { false }
        }
        let knownTeachers = KnownTeachers(teachers)
        // The cache leaves an article's HTML in its page. With no pages to read it from
        // (`rm -rf Output`, a CI machine with the cache restored) the articles stored so do
        // not decode, and are parsed again below, on both cores, as in a first build (not one
        // by one as pages ask); this build stores their HTML in full, for the next without
        // pages.
        let pagesGone = previous != nil && OutputStaging.holdsNoPages(outputURL.path)
        let pageTexts = pagesGone ? nil : previous.map { PageTexts(output: outputURL.path, cache: $0, tree: tree, context: modelContext) }
        let decodedCached = parallelMap(encoded) { cached[$0]?.decoded(teachers: knownTeachers, pages: pageTexts) }
        var models: [BuildCache.Model] = []
        models.reserveCapacity(tree.markdown.count)
        var unreadable: [Int] = []
        var nextEncoded = 0
        for index in slots.indices {
            guard let entry = slots[index] else { continue }
            let result: (BuildCache.Model, [Diagnostic])?
            if nextEncoded < encoded.count, encoded[nextEncoded] == index {
                result = decodedCached[nextEncoded]
                nextEncoded += 1
            } else {
                result = entry.decoded()
            }
            guard let (model, diagnostics) = result else {
                unreadable.append(index)
                continue
            }
            models.append(model)
            diagnostics.forEach(log.add)
            // A long-running process keeps the models decoded. So does a build with pages for
            // an article stored with its HTML by a build without them: the save stores it
            // again without the HTML if its page holds it now, so that the store every full
            // build reads whole stays small.
            if case .encoded = entry.payload, memory != nil || (!pagesGone && model.isArticleWithItsHTML) {
                slots[index] = BuildCache.ContentEntry(stamp: entry.stamp, hash: entry.hash, model: model, diagnostics: diagnostics, stored: entry.stored,
                                                           storedChecksum: entry.storedChecksum)
            }
        }
        report.parsedCount = made.count { $0.parsed } + unreadable.count
        for (index, entry) in zip(unreadable, Validate.models(unreadable.map { tree.markdown[$0] }, tree: tree, context: modelContext)) {
            slots[index] = entry
            if let (model, diagnostics) = entry.decoded() {
                models.append(model)
                diagnostics.forEach(log.add)
            }
        }
        var entries = ContentTable()
        entries.reserveCapacity(tree.markdown.count)
        for (source, slot) in zip(tree.markdown, slots) {
            if let slot { entries.append(source.contentPath, slot) }
        }
        // The hash of every file by its path, for the pages' fingerprints: made on another
        // thread while the index is built.
        let hashing = Concurrently { [slots, markdown = tree.markdown] in
            var hashes: [String: UInt64] = [:]
            hashes.reserveCapacity(markdown.count)
            for (source, slot) in zip(markdown, slots) { hashes["Content/" + source.contentPath] = slot?.hash }
            return hashes
        }
        let content = Validate.content(models, teachers: teachers)
        // The index is built mostly on one core: the articles' views are made on the other
        // meanwhile, until the pages are rendered.
        let articleViews = ArticleViewMemo(context: ViewContext(site: site))
        let makingViews = Concurrently { [drafts = options.drafts] in articleViews.makeAhead(content.articles.filter { drafts || !$0.draft }) }
        defer { articleViews.stop() }
        if site.homework.grades.isEmpty, let first = tree.markdown.first(where: { $0.kind == .assignment }) {
            log.error(at: site.gradesLocation, "'homework.grades' must list the grades that get pages, like [6, 7, 8]: Content/\(first.contentPath) and other assignments need them")
        }

        let (theme, assets) = loadTheme(tree: tree, site: site, leaflet: leaflet, log: log)

        let index = SiteIndex(content: content, site: site, moment: moment, includeDrafts: options.drafts, staticFiles: tree.staticFiles, themeAssets: Array(assets.files.keys), log: log)

        report.diagnostics = finish(log, strict: options.strict)
        guard report.succeeded, let theme else { return Prepared(report: report) }

        progress("Rendering")
        // Folders of a first build are made on a thread of their own from here on, while the
        // pages are fingerprinted and rendered in the same order.
        let staging = stagesPages ? OutputStaging(output: outputURL).map { staging in
            staging.mirrorsOutput ? staging.makingFolders(for: PlannedPage.workOrder(index.plan).map { index.planPaths[$0] } + tree.staticFiles + Array(assets.files.keys)) : staging
        } : nil
        let hashes = hashing.wait()
        let fingerprinter = PageFingerprints(index, hashes: hashes, context: context.value, assets: assets.paths)
        let fingerprints = fingerprinter.of(index.plan, paths: index.planPaths)
        articleViews.stop()
        _ = makingViews.wait()
        // The output's check, started with the cache's load, is long done by now. A long-
        // running process does not check it in the background; its pages are looked at one
        // by one.
        let outputFoundAsLeft = remembered == nil && previous != nil && loaded?.outputIsAsLeft?.wait() == true
        var rendered: Render.Output
        do {
            rendered = try Render.run(index, theme: theme, leaflet: leaflet, assets: assets.paths,
                                      reuse: Render.Reuse(previous: previous, fingerprints: fingerprints, outputRoot: outputURL.path, staging: staging,
                                                          outputIsAsLeft: outputFoundAsLeft),
                                      articles: articleViews)
        } catch {
            staging?.remove()
            report.diagnostics.append(Diagnostic(error))
            return Prepared(report: report)
        }
        if let changed = pageTexts?.changedSources.all, !changed.isEmpty {
            staging?.remove()
            report.diagnostics += changed.map { SiteBuilder.changedWhileBuilding($0) }
            return Prepared(report: report)
        }
        // A command keeps the lists beside its cache, for a rebuild after an edit they show
        // (`EditedArticles`); made and written on another core while the pages' table is
        // sorted and the files are put in place (started after the table, they left a core
        // idle while it was sorted).
        let writingLists = memory == nil ? cacheFile.map { file in
            Concurrently { [homework = rendered.homework, contextHash = context.value] in
                homework.flatMap { homework in
                    SiteLists(index: index, contextHash: contextHash, homeworkSummary: homework.summaryValues,
                              homeworkSummaryPrint: fingerprinter.homeworkSummaryPrint).write(besides: file)
                }
            }
        } : nil
        // A command saves its cache every time: the models go to the store on a thread of
        // their own from here on, while the files are put in place. Models kept from the
        // last cache are where that cache's store has them; an article whose page holds its
        // HTML is stored without it, so the store waits for the pages. A build that fails
        // from here on leaves the last cache's store as that cache needs it
        // (`ModelStore.Saved`).
        let storeMark = (previous ?? candidate)?.store ?? ModelStore.Mark()
        let pages = PageTable(rendered.pages)
        let storingModels = memory == nil ? cacheFile.map { file in
            let content = entries
            return Concurrently { BuildCache.saveModels(content, besides: file, readAs: storeMark, htmlIn: pagesGone ? nil : pages) }
        } : nil
        if options.leavesMemoryToExit, let workings = rendered.workings { ProcessLifetime.keep(workings) }
        report.pageCount = rendered.files.count
        report.renderedCount = rendered.renderedCount
        // Taken out, so that adding to them does not copy every page's file first.
        var files = rendered.files
        rendered.files = []
        files.reserveCapacity(files.count + tree.staticFiles.count + assets.files.count)
        for path in tree.staticFiles {
            files.append(OutputFile(path: path, contents: .copy(sourceURL.appendingPathComponent("Content").appendingPathComponent(path),
                                                                hash: staticHashes["Content/" + path])))
        }
        for (path, bytes) in assets.files.sorted(by: { $0.key < $1.key }) {
            files.append(OutputFile(path: path, contents: .bytes(bytes)))
        }
        var cache = BuildCache(signature: signature, contextHash: context.value)
        cache.moment = moment.key
        cache.store = storeMark
        cache.inputs = tree.stamps
        cache.staticHashes = staticHashes
        cache.content = entries
        cache.pages = pages
        cache.cardReads = rendered.cardReads | (previous?.cardReads ?? 0)
        cache.feedSources = index.hasFeeds ? index.articles.prefix(Publishing.feedLength).map(\.sourcePath) : []
        cache.formatFacts = Formats.of(index.site.language).known
        cache.racyInputs = BuildCache.racyInputs(of: tree, hashes: hashes, staticHashes: staticHashes)
        var warm: WarmBuild?
        if memory != nil {
            let positions = Dictionary(uniqueKeysWithValues: tree.markdown.enumerated().map { ($1.contentPath, $0) })
            warm = WarmBuild(tree: tree, positions: positions, modelContext: modelContext, theme: theme, leaflet: leaflet, assets: assets.paths, index: index,
                             hashes: hashes, contextHash: context.value, report: report, cache: cache, outputURL: outputURL)
        }
        return Prepared(report: report, outputURL: outputURL, files: files, index: index, cache: cache, previousOutputs: previous?.outputs ?? PathTable(),
                        previousFolders: previous?.folders ?? PathTable(), outputIsAsLeft: outputFoundAsLeft, staging: staging, warm: warm,
                        storingModels: storingModels, writingLists: writingLists)
    }

    /// The error of a source that changed while a build was reading it.
    static func changedWhileBuilding(_ sourcePath: String) -> Diagnostic {
        Diagnostic(.error, at: SourceLocation(path: sourcePath, line: 1, column: 1), "the file changed while sitegen was building; build again")
    }

    /// Whether every file of the output is as `cache` has it written and no folder of it
    /// changed (a file put there by someone else is removed by a build).
    static func outputIsAsLeft(_ cache: BuildCache, in root: String) -> Bool {
        OutputWriter.isAsLeft(cache.outputs, folders: cache.folders, in: root)
    }

    /// The site's theme, and the files it and Leaflet publish under `assets/`.
    static func loadTheme(tree: SourceTree, site: Site, leaflet: [String: [UInt8]]?, log: DiagnosticLog) -> (Theme?, PublishedAssets) {
        let themeLog = DiagnosticLog()
        let theme = Theme.load(from: tree.themes[site.theme] ?? [:], name: site.theme, log: themeLog)
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

    /// Whether `finish(log, strict:)` would hold an error, without making and sorting it.
    static func fails(_ log: DiagnosticLog, strict: Bool) -> Bool {
        log.hasErrors || (strict && !log.entries.isEmpty)
    }

    static func finish(_ log: DiagnosticLog, strict: Bool) -> [Diagnostic] {
        log.entries.map { diagnostic in
            var diagnostic = diagnostic
            if strict { diagnostic.severity = .error }
            return diagnostic
        }.sorted()
    }
}

/// The build cache kept in memory between the builds of one process (`sitegen serve`):
/// models stay decoded, so a rebuild after an edit only redoes the edited file's work.
public final class BuildMemory: Sendable {
    private let stored = Mutex<(cache: BuildCache?, builds: Int, warm: WarmBuild?)>((nil, 0, nil))

    public init() {}

    var cache: BuildCache? { stored.withLock { $0.warm?.cache ?? $0.cache } }

    /// Takes the last good build out, when the last build was good: the caller changes
    /// it in place, or drops it.
    func takeWarm() -> WarmBuild? {
        stored.withLock { state in
            let warm = state.warm
            state.warm = nil
            return warm
        }
    }

    func keep(cacheOnly cache: BuildCache) {
        stored.withLock { $0.cache = cache }
    }

    /// Keeps `warm` as the last good build, its cache as the cache.
    func keep(_ warm: WarmBuild) {
        stored.withLock { state in
            state.warm = warm
            state.cache = nil
        }
    }

    /// Keeps `cache`; true the first time.
    func keep(_ cache: BuildCache) -> Bool {
        stored.withLock { state in
            state.cache = cache
            state.builds += 1
            return state.builds == 1
        }
    }
}

/// What a command leaves for the end of its process (`BuildOptions.leavesMemoryToExit`).
enum ProcessLifetime {
    private static let kept = Mutex<[any Sendable]>([])

    static func keep(_ value: any Sendable) {
        kept.withLock { $0.append(value) }
    }
}

/// The build's "now": `--today` or the clock, read in the site's time zone.
struct BuildMoment: Sendable, Hashable {
    var date: CalendarDate
    var time: TimeOfDay?

    init(date: CalendarDate, time: TimeOfDay?) {
        self.date = date
        self.time = time
    }

    init?(parsing text: String) {
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard let date = CalendarDate(parsing: parts[0]), (try? date.check()) != nil else { return nil }
        var time: TimeOfDay?
        if parts.count == 2 {
            guard let parsed = TimeOfDay(parsing: parts[1]) else { return nil }
            time = parsed
        }
        self.init(date: date, time: time)
    }

    /// The moment a build of `site` renders at: `requested` (`--today`) or the clock's,
    /// settled. Every build, and the dev server's quick rebuilds, take it from here.
    static func seen(requested: BuildMoment?, clock: () -> Date, by site: Site) -> BuildMoment {
        (requested ?? now(in: site.timeZone, at: clock())).settled(releaseTime: site.homework.releaseTime)
    }

    /// The moment as the pages see it. What the homework pages show changes only at
    /// midnight (the day's relative dates, what is upcoming) and at the release time (the
    /// day's work becomes tonight's): any moment after the release time is the day alone,
    /// which reads as the release time, and any moment before it is the day at midnight.
    /// So builds between two of those changes make the same bytes and find the same cache,
    /// where the minute of the clock would make every build a new one.
    func settled(releaseTime: TimeOfDay) -> BuildMoment {
        guard let time, time < releaseTime else { return BuildMoment(date: date, time: nil) }
        return BuildMoment(date: date, time: TimeOfDay(hour: 0, minute: 0))
    }

    /// When the clock next reaches a moment that settles to another than this settled
    /// one: the day's release time when this is the day before it, else the next midnight.
    func nextChange(releaseTime: TimeOfDay, in zone: TimeZone) -> Date {
        let next = time == nil ? BuildMoment(date: CalendarDate(dayNumber: date.dayNumber + 1), time: TimeOfDay(hour: 0, minute: 0))
                               : BuildMoment(date: date, time: releaseTime)
        return next.instant(in: zone)
    }

    /// The instant this moment names in `zone` (a date alone: its midnight).
    func instant(in zone: TimeZone) -> Date {
        Date(timeIntervalSince1970: TimeInterval(DateTimeValue(date: date, time: time).instant(in: zone)))
    }

    /// The moment as the cache notes it.
    var key: String { "\(date)T\(time?.description ?? "-")" }

    /// The clock's moment at `instant`, read in `zone`, to the minute.
    static func now(in zone: TimeZone, at instant: Date) -> BuildMoment {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: instant)
        let day = seconds.floorDivided(by: 86_400)
        let secondOfDay = seconds - day * 86_400
        return BuildMoment(date: CalendarDate(dayNumber: day), time: TimeOfDay(hour: secondOfDay / 3600, minute: secondOfDay % 3600 / 60))
    }
}
