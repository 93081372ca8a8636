import SitegenContent
import SitegenSupport

/// `sitegen digest`: what each grade leads with at a moment, from the stages up to the
/// index (load → parse → validate → index); no photo is made and nothing is rendered or
/// written.
public enum Digest {
    /// The report of the stages run, and each grade's digest (only `grades` when given, in
    /// that order) when they succeeded.
    public static func make(_ options: BuildOptions, grades wanted: [GradeID]? = nil) -> (BuildReport, [TonightDigest]) {
        let request: BuildRequest
        do { request = try BuildRequest(options) } catch { return (BuildReport(commandError: error.message), []) }
        let tree = Load.tree(request, known: nil)
        let log = DiagnosticLog()
        tree.problems.forEach(log.add)
        let settings = Parse.settings(tree, request: request, log: log)
        var report = BuildReport(request: request, settings: settings)
        let context = Validate.context(site: settings.site, teachers: settings.teachers, tree: tree)
        let validated = Validate.models(of: tree, known: [], context: context)
        for result in validated { result.model.diagnostics.forEach(log.add) }
        let content = Validate.content(validated.lazy.map(\.model.model), teachers: settings.teachers)
        let index = SiteIndex(content: content, site: settings.site, moment: settings.moment,
                              schedule: ArticleSchedule(clock: settings.clock, includeFuture: request.options.future), includeDrafts: request.options.drafts,
                              staticFiles: tree.staticFiles, themeAssets: [], log: log)
        let grades = settings.site.homework.grades
        if grades.isEmpty {
            log.error(at: settings.site.gradesLocation, "'homework.grades' must list the grades that get pages, like [6, 7, 8]: the digest is made of them (docs/homework.md)")
        }
        report.diagnostics = SiteBuilder.finish(log.entries, strict: request.options.strict)
        guard report.succeeded else { return (report, []) }
        let views = HomeworkViews(index: index, context: ViewContext(site: settings.site, formats: Formats(language: settings.site.language),
                                                                     clock: settings.clock, strings: settings.strings))
        return (report, (wanted ?? grades).map { TonightDigest(grade: $0, views: views) })
    }
}
