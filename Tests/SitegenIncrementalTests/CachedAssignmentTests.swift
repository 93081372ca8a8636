import Foundation
import SitegenContent
import SitegenFiles
@testable import SitegenIncremental
import SitegenPipeline
import SitegenYAML
import Testing

@Suite("Cached assignments")
struct CachedAssignmentTests {
    private let site = Site(node: try! YAMLReader.read(Array("title: School\nhomework:\n  grades: [7, 8]\n  subjects: [Math]\n".utf8), path: "Content/site.yaml"),
                            log: DiagnosticLog())

    @Test func aTeacherRecognisedByItsBytesReadsBackAsWritten() throws {
        let teacher = Teacher(id: "lee", name: "Ms. Lee", subject: "Math", grades: [GradeID("8")], blog: nil, email: "lee@example.com")
        // Same id, name and subject: its bytes begin as the teacher's do, then differ.
        let namesake = Teacher(id: "lee", name: "Ms. Lee", subject: "Math", grades: [GradeID("7")], blog: nil, email: nil)
        let context = ModelContext(site: site, teachers: ["lee": teacher], images: ImageLookup(staticFiles: []) { _, _ in nil })
        let yaml = "title: Fractions\nteacher: lee\ngrade: 8\nassigned: 2026-11-23\n"
        let written = try Assignment(file: ContentFile(path: "Content/homework/f.md", contentPath: "homework/f.md",
                                                       frontMatter: try YAMLReader.read(Array(yaml.utf8), path: "x"), body: Array("Pages *4–6*.".utf8), bodyFirstLine: 6),
                                     context: context, log: DiagnosticLog())
        let bytes = try #require(BuildCache.ContentEntry(stamp: FileStamp(size: 1, modified: 1), hash: 1, model: .assignment(written), diagnostics: []).encoded())
        for known in [nil, KnownTeachers([]), KnownTeachers([teacher]), KnownTeachers([namesake]), KnownTeachers([namesake, teacher])] {
            guard case .assignment(let read)? = BuildCache.ContentEntry.decode(bytes, teachers: known)?.0 else {
                Issue.record("the cached assignment did not read back")
                continue
            }
            #expect(read.teacher == teacher)
            #expect(read.subject == "Math")
            #expect(read.title == written.title && read.id == written.id && read.assigned == written.assigned)
            #expect(read.detailsHTML.text == written.detailsHTML.text && read.detailsHTML.text.contains("<em>4–6</em>"))
            #expect(read.detailsText.text == written.detailsText.text)
        }
    }

    /// Either form of `repeat`, with and without an end, reads back as written.
    @Test func aRepeatReadsBackAsWritten() throws {
        let context = ModelContext(site: site, teachers: [:], images: ImageLookup(staticFiles: []) { _, _ in nil })
        for repeats in ["{every: school day, until: 2026-12-18}", "{on: [fri, mon, wed]}", "{every: school days}"] {
            let yaml = "title: Reading\nsubject: English\ngrade: 8\nassigned: 2026-11-23\nrepeat: \(repeats)\n"
            let written = try Assignment(file: ContentFile(path: "Content/homework/r.md", contentPath: "homework/r.md",
                                                           frontMatter: try YAMLReader.read(Array(yaml.utf8), path: "x"), body: [], bodyFirstLine: 7),
                                         context: context, log: DiagnosticLog())
            #expect(written.repeats != nil, "\(repeats)")
            let bytes = try #require(BuildCache.ContentEntry(stamp: FileStamp(size: 1, modified: 1), hash: 1, model: .assignment(written), diagnostics: []).encoded())
            guard case .assignment(let read)? = BuildCache.ContentEntry.decode(bytes, teachers: nil)?.0 else {
                Issue.record("\(repeats) did not read back")
                continue
            }
            #expect(read.repeats == written.repeats, "\(repeats)")
        }
    }
}
