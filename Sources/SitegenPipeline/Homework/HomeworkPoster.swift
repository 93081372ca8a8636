import SitegenContent
import SitegenMustache
import SitegenQRCode

/// `/homework/grade-8/poster/`: a page to print and hang up around the school, whose QR
/// codes open the grade's page, subscribe to its calendar and follow its feed.
extension HomeworkViews {
    /// The codes' error correction: a quarter of a code may be lost on a poster that is
    /// folded, scuffed or pinned through, and it still reads.
    static let posterCorrection = QRCode.Correction.quartile

    /// The addresses the poster's codes hold, in its order: the page, the calendar
    /// (`webcal:`, which phones subscribe to) and the feed; each with its words' name.
    public func posterAddresses(_ grade: GradeID) -> [(name: String, url: String)] {
        [("page", absolute(gradePath(grade))), ("calendar", webcalURL(grade, origin: site.origin ?? "")), ("feed", absolute(gradePath(grade) + "feed.xml"))]
    }

    public func posterPage(_ grade: GradeID) -> MustacheFields {
        let name = context.gradeName(grade)
        let words = context.strings
        let codes: [MustacheValue] = posterAddresses(grade).map { kind, url in
            let title = words.text("poster.\(kind)")
            // The build refuses a poster when libqrencode is missing (SiteBuilder), and no
            // address of a site is too long for a code: nil leaves the code out.
            let svg = QRCode(url, correction: Self.posterCorrection)?.svg(label: words.text("poster.codeLabel", ["title": title]))
            return .fields([
                "kind": .string(kind),
                "title": .string(title),
                "text": .string(words.text("poster.\(kind)Text", ["grade": name])),
                "url": .string(url),
                "svg": svg.map { .string($0) } ?? .null,
            ])
        }
        var fields: MustacheFields = [:]
        fields["grade"] = common(grade)["grade"]
        fields["posterTitle"] = .string(words.text("poster.title", ["grade": name]))
        fields["how"] = .string(words.text("poster.how"))
        fields["lead"] = .string(words.text("poster.lead", ["grade": name, "time": context.formats.time(site.homework.releaseTime)]))
        fields["codes"] = .array(codes)
        return fields
    }
}
