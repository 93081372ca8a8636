import Foundation
import SitegenContent
import SitegenFiles
import SitegenPipeline
import SitegenSupport

/// Assignments edited in place, for a command's rebuild: the homework is made again from
/// every assignment, read from the model store with the edited ones in their places, and
/// the pages made of it are rendered (their fingerprints tell which show the edit). Of the
/// rest of the site only the home pages show homework, its summary: an edit that changes
/// the summary, or that gives a day its first work or takes its last (a day's pages made or
/// removed, the archive's links and the sitemap changed), is left to the whole build.
extension EditScope {
    func homeworkScope(_ edited: [EditedSource], in build: ScopeRequest, options: BuildOptions) -> ScopedBuild? {
        let settings = build.settings
        guard !settings.site.homework.grades.isEmpty, let edits = HomeworkEdit(edited, strict: options.strict),
              let store = ModelStore.read(ModelStore.path(besides: cacheFile), as: previous.store)
        else { return nil }
        let teachers = KnownTeachers(settings.teachers)
        let assignmentFiles = tree.markdown.filter { $0.kind == .assignment }
        let entries = previous.content.entries(for: assignmentFiles)
        guard let (all, old) = edits.assignments(of: assignmentFiles, entries: entries, read: { $0.decoded(in: store, teachers: teachers) }) else { return nil }
        var pages: [Page] = []
        for entry in previous.content.entries(for: pageFiles) {
            switch entry?.decoded(in: store, teachers: nil)?.0 {
            case .page(let page)?: pages.append(page)
            case SourceModel.Model.none?: continue
            default: return nil
            }
        }
        options.keptUntilExit?.keep((store, all))

        let log = DiagnosticLog()
        let (theme, assets) = Theme.forSite(tree: tree, settings: settings, log: log)
        let index = SiteIndex(content: SiteContent(teachers: settings.teachers, articles: [], assignments: all, pages: pages), site: settings.site,
                              moment: settings.moment, schedule: ArticleSchedule(clock: settings.clock, includeFuture: options.future),
                              includeDrafts: options.drafts, staticFiles: tree.staticFiles, themeAssets: Array(assets.files.keys), log: log)
        guard let theme, !log.entries.contains(where: { $0.severity == .error }) else { return nil }
        let (shown, paths) = index.homeworkPages(showing: old.map(\.assignment) + edits.assignments)

        // Every day page of the new homework was there; every day the edited assignments
        // had work on still has some.
        guard index.homeworkPages.paths.allSatisfy({ previous.pages[$0] != nil }) else { return nil }
        let oldDays = SiteIndex.homeworkSchedule(of: old.map(\.assignment), site: settings.site, moment: settings.moment, teachers: settings.teachers,
                                                 includeDrafts: options.drafts).schoolDays
        guard Set(oldDays).isSubset(of: index.homework.schoolDays) else { return nil }

        var hashes: [String: UInt64] = [:]
        hashes.reserveCapacity(all.count)
        for (file, entry) in zip(assignmentFiles, entries) { hashes["Content/" + file.contentPath] = entry?.hash }
        for source in edited { hashes["Content/" + source.file.contentPath] = source.model.hash }
        // `/homework/` shows the summary alone: its print is the home pages' part.
        let summaryPage = PlannedPage.homework
        let print = PageFingerprints(index, hashes: hashes, context: previous.contextHash, assets: assets.paths, pageCount: 1).of([summaryPage], paths: [summaryPage.path])
        guard previous.pages[summaryPage.path]?.fingerprint == print.first else { return nil }

        self.hashes = hashes
        settledBefore = tree.settledBefore
        var diagnostics = previous.diagnostics
        for (file, source) in zip(files, edited) {
            self.edits.content[file.contentPath] = BuildCache.ContentEntry(stamp: file.stamp, hash: source.model.hash, model: source.model.model,
                                                                           diagnostics: source.model.diagnostics)
        }
        for problem in old.flatMap(\.diagnostics) {
            if let place = diagnostics.firstIndex(of: problem) { diagnostics.remove(at: place) }
        }
        return ScopedBuild(index: index, theme: theme, assets: assets, pages: shown, paths: paths, homeworkSummary: nil,
                           diagnostics: diagnostics + edited.flatMap(\.model.diagnostics), pageCount: previous.pageCount, fileCount: previous.fileCount)
    }
}

/// Assignments edited in place, for a command's rebuild (`EditScope.homeworkScope`) and a
/// server's (`CachedBuild.warmHomeworkScope`): each one's new model, to put in the old
/// one's place among every assignment of the site.
struct HomeworkEdit {
    /// The edited assignments, by path relative to Content/.
    private let replacements: [String: Assignment]
    /// The edited assignments, in the order of the edits.
    let assignments: [Assignment]

    /// Nil unless every edited file is an assignment without an error (or, with `strict`,
    /// a warning): the whole build reports those.
    init?(_ edited: [EditedSource], strict: Bool) {
        var replacements: [String: Assignment] = [:]
        var assignments: [Assignment] = []
        for source in edited {
            guard source.file.kind == .assignment, case .assignment(let assignment) = source.model.model,
                  !source.model.diagnostics.contains(where: { $0.severity == .error || (strict && $0.severity == .warning) })
            else { return nil }
            replacements[source.file.contentPath] = assignment
            assignments.append(assignment)
        }
        self.replacements = replacements
        self.assignments = assignments
    }

    /// Every assignment of `files` (the tree's, in its order), from their `entries` in
    /// the last build's cache, read on both cores, with the edited ones in their places;
    /// and the edited ones as that build had them, with their problems. Nil when a model
    /// does not read back or is not an assignment.
    func assignments(of files: [SourceTree.MarkdownFile], entries: [BuildCache.ContentEntry?],
                     read: @Sendable (BuildCache.ContentEntry) -> (SourceModel.Model, [Diagnostic])?)
        -> (all: [Assignment], old: [(assignment: Assignment, diagnostics: [Diagnostic])])? {
        let replacements = self.replacements
        let found = parallelMap(Array(files.indices), inRunsOf: 256) { index -> (Assignment, (Assignment, [Diagnostic])?)? in
            let replacement = replacements[files[index].contentPath]
            guard let entry = entries[index], let (model, diagnostics) = read(entry), case .assignment(let assignment) = model else { return nil }
            return replacement.map { ($0, (assignment, diagnostics)) } ?? (assignment, nil)
        }
        var all: [Assignment] = []
        all.reserveCapacity(found.count)
        var old: [(assignment: Assignment, diagnostics: [Diagnostic])] = []
        for item in found {
            guard let (assignment, replaced) = item else { return nil }
            all.append(assignment)
            if let replaced { old.append(replaced) }
        }
        guard old.count == replacements.count else { return nil }
        return (all, old)
    }
}
