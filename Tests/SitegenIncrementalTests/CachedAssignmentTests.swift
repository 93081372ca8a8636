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
}
