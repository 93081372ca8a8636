import Foundation
import SitegenContent
import SitegenFiles
import SitegenQRCode
import SitegenSupport

/// The build: load → parse → validate → index → render → write. Each stage takes values and
/// returns values; nothing is written until every page is rendered, so a failed build
/// leaves the output folder as it was. A `BuildReuse` answers at the stages' boundaries
/// for what the builds before this one made; every build, with one or without, goes
/// through these stages.
public enum SiteBuilder {
    public static func build(_ options: BuildOptions, reuse: (any BuildReuse)? = nil, progress: @escaping @Sendable (String) -> Void = { _ in }) -> BuildReport {
        var made = make(options, reuse: reuse, staging: true, progress: progress)
        defer { made.staging?.remove() }
        guard made.report.succeeded, made.files != nil else { return made.report }
        progress("Writing")
        return Write.run(&made, reuse: reuse, progress: progress)
    }

    /// Every stage but the write: what `sitegen check` looks at. `staging`: whether a first
    /// build puts its pages in a folder beside the output as they are rendered. `photos`:
    /// the photos made before, for a build without a reuse (`check` takes the builds').
    public static func make(_ options: BuildOptions, reuse: (any BuildReuse)?, photos: (any PhotoStore)? = nil, staging: Bool = false,
                            progress: @Sendable (String) -> Void) -> Made {
        let request: BuildRequest
        do { request = try BuildRequest(options) } catch { return Made(report: BuildReport(commandError: error.message)) }
        if staging { OutputStaging.removeLeftovers(of: request.outputURL) }

        progress("Reading")
        let known = reuse?.sources(for: request)
        let tree = Load.tree(request, known: known)
        progress("Parsing")
        let log = DiagnosticLog()
        tree.problems.forEach(log.add)
        let settings = Parse.settings(tree, request: request, log: log)
        var report = BuildReport(request: request, settings: settings)
        // Every file is read as the settings say: with broken ones, they are what there is to
        // fix first (`stopsAtBrokenSettings`).
        let settingsProblems = finish(log.entries, strict: request.options.strict)
        if request.options.stopsAtBrokenSettings, settingsProblems.contains(where: { $0.severity == .error }) {
            report.diagnostics = settingsProblems
            return Made(report: report)
        }
        let changes = reuse?.changes(in: tree, settings: settings, walked: known?.isTree != true) ?? .unknown
        if case .none(let last) = changes { return Made(report: report.taking(last)) }
        let formats = reuse?.formats(for: settings.site.language) ?? Formats(language: settings.site.language)
        let made = Made(report: report, request: request, tree: tree, settings: settings, formats: formats)

        progress("Validating")
        let context = Validate.context(site: settings.site, teachers: settings.teachers, tree: tree)
        if case .edited(let files) = changes, let reuse {
            let edited = zip(files, Validate.models(files, tree: tree, context: context)).map(EditedSource.init)
            let scopeRequest = ScopeRequest(tree: tree, settings: settings, context: context, formats: formats)
            // A photo new to the site is made by a whole build.
            if let scope = reuse.scope(edited, in: scopeRequest),
               let colours = Photos.colours(showing: edited.map(\.model.model), staticFiles: tree.staticFiles, settings: settings.site.images,
                                            store: reuse.photoStore, staticHash: { reuse.staticHash(of: $0) }) {
                var scoped = made
                if renderScope(scope, edited: edited.count, colours: colours, into: &scoped, reuse: reuse, progress: progress) { return scoped }
            }
        }
        return whole(made, log: log, context: context, reuse: reuse, photos: reuse?.photoStore ?? photos, staging: staging, progress: progress)
    }

    /// The pages of `scope` rendered; false when the scope did not hold and the whole site
    /// is to be built instead.
    private static func renderScope(_ scope: ScopedBuild, edited: Int, colours: PhotoColours, into made: inout Made, reuse: any BuildReuse, progress: (String) -> Void) -> Bool {
        made.report.diagnostics = finish(scope.diagnostics, strict: made.request!.options.strict)
        made.report.parsedCount = edited
        made.report.extent = .edits
        made.report.pageCount = scope.pageCount
        made.report.fileCount = scope.fileCount
        made.index = scope.index
        made.report.nextScheduled = scope.index.nextScheduled
        made.theme = scope.theme
        made.assets = scope.assets
        made.isScoped = true
        guard made.report.succeeded else { return true }
        progress("Rendering")
        let pages = reuse.pages(scope.pages, paths: scope.paths, of: scope.index, assets: scope.assets, models: nil)
        let articles = ArticleViewMemo(context: ViewContext(site: made.settings!.site, formats: made.formats!, clock: made.settings!.clock, strings: made.settings!.strings,
                                                            photoColours: colours))
        guard let rendered = try? Render.run(scope.index, theme: scope.theme, leaflet: made.settings!.leaflet?.files, assets: scope.assets.paths,
                                             pages: (scope.pages, scope.paths), articles: articles, homeworkSummary: scope.homeworkSummary, reuse: pages),
              reuse.rendered(rendered, report: &made.report)
        else { return false }
        made.report.renderedCount = rendered.renderedCount
        made.files = rendered.files
        made.workings = rendered.workings
        return true
    }

    /// Every model validated and indexed, every page planned and rendered (or found as the
    /// last build left it), with the static files and the theme's assets.
    private static func whole(_ made: Made, log: DiagnosticLog, context: ModelContext, reuse: (any BuildReuse)?, photos store: (any PhotoStore)?,
                              staging: Bool, progress: (String) -> Void) -> Made {
        var made = made
        let (request, tree, settings) = (made.request!, made.tree!, made.settings!)
        // A server compiles the theme first, to stop at its errors; a command compiles it
        // while the articles' views are made on the other core.
        var themed: (Theme?, PublishedAssets)?
        if request.options.stopsAtBrokenSettings {
            themed = Theme.forSite(tree: tree, settings: settings, log: log)
            if themed?.0 == nil {
                made.report.diagnostics = finish(log.entries, strict: request.options.strict)
                return made
            }
        }
        let validated = Validate.models(of: tree, known: reuse?.models(of: tree, context: context) ?? [], context: context)
        made.report.parsedCount = validated.count { $0.parsed }
        for result in validated { result.model.diagnostics.forEach(log.add) }
        let content = Validate.content(validated.lazy.map(\.model.model), teachers: settings.teachers)
        progress("Photos")
        DrawingSafety.check(staticFiles: tree.staticFiles, contentFolder: request.sourceURL.appendingPathComponent("Content"), log: log)
        let photos = Photos.run(content, settings: settings.site.images, staticFiles: tree.staticFiles, contentFolder: request.sourceURL.appendingPathComponent("Content"),
                                store: store, staticHash: { path in reuse?.staticHash(of: path) }, log: log)
        made.report.photosMade = photos.madeCount
        made.photoColours = photos.colours
        // The index is built mostly on one core: the articles' views are made on the other
        // meanwhile, until the pages are rendered.
        let articles = ArticleViewMemo(context: ViewContext(site: settings.site, formats: made.formats!, clock: settings.clock, strings: settings.strings,
                                                            photoColours: PhotoColours(photos.colours)))
        let makingViews = Concurrently { [drafts = request.options.drafts] in articles.makeAhead(content.articles.filter { drafts || !$0.draft }) }
        defer { articles.stop() }
        let (theme, assets) = themed ?? Theme.forSite(tree: tree, settings: settings, log: log)
        let index = SiteIndex(content: content, site: settings.site, moment: settings.moment,
                              schedule: ArticleSchedule(clock: settings.clock, includeFuture: request.options.future), includeDrafts: request.options.drafts, staticFiles: tree.staticFiles,
                              themeAssets: Array(assets.files.keys), log: log)
        if settings.site.homework.grades.isEmpty, let first = tree.markdown.first(where: { $0.kind == .assignment }) {
            log.error(at: settings.site.gradesLocation, "'homework.grades' must list the grades that get pages, like [6, 7, 8]: Content/\(first.contentPath) and other assignments need them")
        }
        if index.plan.contains(where: { if case .poster = $0 { true } else { false } }), let problem = QRCode.libraryProblem() {
            log.error(at: settings.site.gradesLocation, "the posters of 'homework.grades' must be made through libqrencode, found that \(problem): install it (sudo apt install libqrencode4) (docs/homework.md#posters)")
        }
        made.report.diagnostics = finish(log.entries, strict: request.options.strict)
        made.report.nextScheduled = index.nextScheduled
        (made.index, made.theme, made.assets) = (index, theme, assets)
        guard made.report.succeeded, let theme else { return made }

        progress("Rendering")
        // A first build's folders are made on a thread of their own, in the order the pages
        // are rendered.
        made.staging = staging ? OutputStaging(output: request.outputURL).map { staging in
            staging.mirrorsOutput ? staging.makingFolders(for: PlannedPage.workOrder(index.plan).map { index.planPaths[$0] } + tree.staticFiles + photos.files.map(\.path) + Array(assets.files.keys)) : staging
        } : nil
        let pages = reuse?.pages(index.plan, paths: index.planPaths, of: index, assets: assets, models: validated)
        articles.stop()
        _ = makingViews.wait()
        let rendered: Render.Output
        do {
            rendered = try Render.run(index, theme: theme, leaflet: settings.leaflet?.files, assets: assets.paths, articles: articles, reuse: pages, staging: made.staging)
        } catch {
            made.report.diagnostics.append(Diagnostic(error))
            return made
        }
        guard reuse?.rendered(rendered, report: &made.report) ?? true else { return made }
        // Pages are what readers open, as `sitegen check` counts them: not the feeds,
        // calendars, sitemap and robots.txt made beside them.
        made.report.pageCount = rendered.files.count { $0.path.hasSuffix(".html") }
        made.report.renderedCount = rendered.renderedCount
        made.workings = rendered.workings
        made.files = rendered.files + tree.staticFiles.filter { !photos.replaced.contains($0) }.map { path in
            OutputFile(path: path, contents: .copy(request.sourceURL.appendingPathComponent("Content").appendingPathComponent(path), hash: pages?.staticHash(of: path)))
        } + photos.files + assets.files.sorted(by: { $0.key < $1.key }).map { OutputFile(path: $0.key, contents: .bytes($0.value)) }
        return made
    }

    /// The diagnostics of a build, sorted; with `strict`, every warning an error (notes
    /// stay notes).
    public static func finish(_ diagnostics: [Diagnostic], strict: Bool) -> [Diagnostic] {
        diagnostics.map { diagnostic in
            var diagnostic = diagnostic
            if strict, diagnostic.severity == .warning { diagnostic.severity = .error }
            return diagnostic
        }.sorted()
    }
}
