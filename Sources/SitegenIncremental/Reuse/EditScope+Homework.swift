import Foundation
import SitegenContent
import SitegenFiles
import SitegenPipeline
import SitegenSupport

/// Assignments edited in place, for a command's rebuild: the pages made of the homework are
/// rendered from a schedule with the edited assignments in their places (their fingerprints
/// tell which show the edit). The homework's keys kept beside the cache (`HomeworkKeys`)
/// tell what the whole homework holds and which assignments those pages are made of: only
/// they are read from the model store. Without the keys, every assignment is read. Of the
/// rest of the site only the home pages show homework, its summary: an edit that changes
/// the summary, or that gives a day its first work or takes its last (a day's pages made or
/// removed, the archive's links and the sitemap changed), is left to the whole build.
extension EditScope {
    /// What the homework pages showing the edits are made of.
    private struct HomeworkWork {
        var schedule: HomeworkSchedule
        /// The edited assignments as the last build had them, with their problems.
        var old: [(assignment: Assignment, diagnostics: [Diagnostic])]
        /// The days the edited assignments had work shown on.
        var oldDays: [CalendarDate]
        /// The hash of each assignment read, by path relative to the site.
        var hashes: [String: UInt64]
        /// The keys of the homework with the edits, for the next rebuild.
        var keys: HomeworkKeys?
        /// The grades whose feeds, and whose calendars, can show the edits (the others' are
        /// known to be as they were); nil for every grade's.
        var feeds: Set<GradeID>?
        var calendars: Set<GradeID>?
    }

    func homeworkScope(_ edited: [EditedSource], in build: ScopeRequest, options: BuildOptions) -> ScopedBuild? {
        let settings = build.settings
        guard !settings.site.homework.grades.isEmpty, let edits = HomeworkEdit(edited, strict: options.strict) else { return nil }
        let assignmentFiles = tree.markdown.filter { $0.kind == .assignment }
        let keys = HomeworkKeys.read(besides: cacheFile, checksum: previous.homeworkChecksum)
        let work: HomeworkWork?
        if let keys, keys.contextHash == previous.contextHash, keys.moment == settings.moment.key, keys.fileCount == assignmentFiles.count {
            work = homeworkFromKeys(keys, edits: edits, files: assignmentFiles, settings: settings, options: options)
        } else {
            work = homeworkFromStore(edits: edits, files: assignmentFiles, settings: settings, options: options)
        }
        guard let work else { return nil }
        var pages: [Page] = []
        if !pageFiles.isEmpty {
            guard let models = previous.openModels(besides: cacheFile) else { return nil }
            for file in pageFiles {
                switch previous.model(file.contentPath, from: models)?.0 {
                case .page(let page)?: pages.append(page)
                case SourceModel.Model.none?: continue
                default: return nil
                }
            }
        }
        options.keptUntilExit?.keep(work.schedule)

        let log = DiagnosticLog()
        let (theme, assets) = Theme.forSite(tree: tree, settings: settings, log: log)
        let index = SiteIndex(content: SiteContent(teachers: settings.teachers, articles: [], assignments: [], pages: pages), site: settings.site,
                              moment: settings.moment, schedule: ArticleSchedule(clock: settings.clock, includeFuture: options.future),
                              includeDrafts: options.drafts, homework: work.schedule, staticFiles: tree.staticFiles, themeAssets: Array(assets.files.keys), log: log)
        guard let theme, !log.entries.contains(where: { $0.severity == .error }) else { return nil }
        let (showing, showingPaths) = index.homeworkPages(showing: work.old.map(\.assignment) + edits.assignments)
        let kept = zip(showing, showingPaths).filter { page, _ in
            switch page {
            case .gradeFeed(let grade), .gradeJSONFeed(let grade): work.feeds?.contains(grade) ?? true
            case .gradeCalendar(let grade): work.calendars?.contains(grade) ?? true
            default: true
            }
        }
        let (shown, paths) = (kept.map(\.0), kept.map(\.1))

        // Every day page of the new homework was there; every day the edited assignments
        // had work on still has some.
        guard index.homeworkPages.paths.allSatisfy({ previous.pages[$0] != nil }), Set(work.oldDays).isSubset(of: index.homework.schoolDays) else { return nil }

        // `/homework/` shows the summary alone: its print is the home pages' part.
        let summaryPage = PlannedPage.homework
        let print = PageFingerprints(index, hashes: work.hashes, context: previous.contextHash, assets: assets.paths, pageCount: 1).of([summaryPage], paths: [summaryPage.path])
        guard previous.pages[summaryPage.path]?.fingerprint == print.first else { return nil }

        self.hashes = work.hashes
        settledBefore = tree.settledBefore
        var diagnostics = previous.diagnostics
        for (file, source) in zip(files, edited) {
            self.edits.content[file.contentPath] = BuildCache.ContentEntry(stamp: file.stamp, hash: source.model.hash, model: source.model.model,
                                                                           diagnostics: source.model.diagnostics)
        }
        for problem in work.old.flatMap(\.diagnostics) {
            if let place = diagnostics.firstIndex(of: problem) { diagnostics.remove(at: place) }
        }
        writingHomework = Concurrently { [cacheFile, keys = work.keys] in keys?.write(besides: cacheFile) }
        return ScopedBuild(index: index, theme: theme, assets: assets, pages: shown, paths: paths, homeworkSummary: nil,
                           diagnostics: diagnostics + edited.flatMap(\.model.diagnostics), pageCount: previous.pageCount, fileCount: previous.fileCount)
    }

    /// The homework from its keys: the assignments the pages showing the edits are made of
    /// read from the store, the edited ones in their places.
    private func homeworkFromKeys(_ keys: HomeworkKeys, edits: HomeworkEdit, files: [SourceTree.MarkdownFile], settings: BuildSettings,
                                  options: BuildOptions) -> HomeworkWork? {
        let (site, moment, includeDrafts) = (settings.site, settings.moment, options.drafts)
        guard let places = edits.places(in: files),
              let (next, oldRows) = keys.replacing(zip(places, edits.assignments).map { ($0, $1) }, calendar: site.homework.calendar, through: moment.date)
        else { return nil }
        let editedPlaces = Set(places)
        let newRows = next.rows.filter { editedPlaces.contains($0.file) }
        let outline = next.outline(site: site, moment: moment, includeDrafts: includeDrafts)
        let pick = next.pick(showing: oldRows + newRows, outline: outline, site: site, moment: moment, includeDrafts: includeDrafts)
        let read = pick.files.union(editedPlaces).sorted()
        guard let models = previous.openModels(besides: cacheFile) else { return nil }
        let teachers = KnownTeachers(settings.teachers)
        let previous = self.previous
        let found = parallelMap(read, inRunsOf: 64) { place -> (Assignment, [Diagnostic], hash: UInt64)? in
            guard let entry = previous.content[files[place].contentPath], let (model, diagnostics) = BuildCache.model(of: entry, from: models, teachers: teachers),
                  case .assignment(let assignment) = model else { return nil }
            return (assignment, diagnostics, entry.hash)
        }
        var some: [Assignment] = []
        var old: [(assignment: Assignment, diagnostics: [Diagnostic])] = []
        var hashes: [String: UInt64] = [:]
        for (place, item) in zip(read, found) {
            guard let (assignment, diagnostics, hash) = item else { return nil }
            let path = files[place].contentPath
            if let edit = edits.assignment(at: path) {
                some.append(edit)
                old.append((assignment, diagnostics))
            } else {
                some.append(assignment)
                hashes["Content/" + path] = hash
            }
        }
        for source in edits.sources { hashes["Content/" + source.file.contentPath] = source.model.hash }
        let shown = HomeworkKeys.shown(site: site, moment: moment, includeDrafts: includeDrafts)
        let schedule = HomeworkSchedule(site: site, moment: moment, some: some.flatMap { $0.occurrences(in: site.homework.calendar, through: moment.date) },
                                        teachers: settings.teachers, includeDrafts: includeDrafts, outline: outline)
        // A grade's feeds and calendar that hold none of the edited work are as they were:
        // the schedule, made without their work, is not asked for them.
        return HomeworkWork(schedule: schedule, old: old, oldDays: oldRows.filter(shown).map { CalendarDate(dayNumber: $0.day) }, hashes: hashes, keys: next,
                            feeds: Set(next.grades(of: pick.feeds)), calendars: Set(next.grades(of: pick.calendars)))
    }

    /// The homework made of every assignment, read from the store with the edited ones in
    /// their places; and its keys, for the next rebuild.
    private func homeworkFromStore(edits: HomeworkEdit, files: [SourceTree.MarkdownFile], settings: BuildSettings, options: BuildOptions) -> HomeworkWork? {
        let (site, moment) = (settings.site, settings.moment)
        guard let store = ModelStore.read(ModelStore.path(besides: cacheFile), as: previous.store) else { return nil }
        let teachers = KnownTeachers(settings.teachers)
        let entries = previous.content.entries(for: files)
        guard let (all, old) = edits.assignments(of: files, entries: entries, read: { $0.decoded(in: store, teachers: teachers) }) else { return nil }
        let schedule = SiteIndex.homeworkSchedule(of: all, site: site, moment: moment, teachers: settings.teachers, includeDrafts: options.drafts)
        let oldDays = SiteIndex.homeworkSchedule(of: old.map(\.assignment), site: site, moment: moment, teachers: settings.teachers,
                                                 includeDrafts: options.drafts).schoolDays
        var hashes: [String: UInt64] = [:]
        hashes.reserveCapacity(all.count)
        for (file, entry) in zip(files, entries) { hashes["Content/" + file.contentPath] = entry?.hash }
        for source in edits.sources { hashes["Content/" + source.file.contentPath] = source.model.hash }
        let keys = HomeworkKeys(all.enumerated().map { ($0, $1) }, fileCount: all.count, calendar: site.homework.calendar, moment: moment,
                                contextHash: previous.contextHash)
        return HomeworkWork(schedule: schedule, old: old, oldDays: oldDays, hashes: hashes, keys: keys)
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
    /// The edited files, in the order of the edits.
    let sources: [EditedSource]

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
        sources = edited
    }

    /// The edited assignment of the file at `path`, relative to Content/.
    func assignment(at path: String) -> Assignment? { replacements[path] }

    /// Each edited file's place among `files` (the tree's assignment files, in its order),
    /// in the order of the edits; nil when one is not there.
    func places(in files: [SourceTree.MarkdownFile]) -> [Int]? {
        var places: [String: Int] = [:]
        for (place, file) in files.enumerated() where replacements[file.contentPath] != nil { places[file.contentPath] = place }
        let found = sources.compactMap { places[$0.file.contentPath] }
        return found.count == sources.count ? found : nil
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
