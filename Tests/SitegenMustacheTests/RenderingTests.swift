import SitegenMustache
import Testing

private func render(_ template: String, _ data: MustacheValue = [:], partials: [String: String] = [:]) throws -> String {
    var library = try MustacheLibrary(sources: partials)
    let compiled = try MustacheTemplate(name: "test", source: template)
    library.add(compiled)
    return try library.render(compiled, with: data)
}

/// A model type that shows its fields to templates without becoming a dictionary.
private struct Meal: MustacheObject {
    var name: String
    var price: Int
    var tags: [String]

    func mustacheMember(_ key: String) -> MustacheValue? {
        switch key {
        case "name": .string(name)
        case "price": .int(price)
        case "tags": tags.mustacheValue
        case "view": "meal.row"
        default: nil
        }
    }

    var mustacheText: String? { "\(name) (\(price))" }
}

extension MustacheValue {
    /// Strings and numbers alike, for the tests' comparisons.
    fileprivate static func same(_ a: MustacheValue, _ b: MustacheValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): x == y
        case (.int(let x), .int(let y)): x == y
        default: false
        }
    }
}

@Suite("Rendering")
struct RenderingTests {
    @Test func escapesTheFiveHTMLCharactersInDoubleMustaches() throws {
        #expect(try render("{{x}}", ["x": "<a href=\"x\">Tom & Jerry's</a>"]) == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;")
    }

    /// Partials are found by the names the library has when it renders, whichever template
    /// was added first or replaced since; a template of a name the library holds another of
    /// finds its own partials by name.
    @Test func partialsAreTheLibrarysTemplatesOfTheirNamesWhateverWasAddedWhen() throws {
        var library = MustacheLibrary(missingTemplates: .fail)
        library.add(try MustacheTemplate(name: "frame", source: "({{>note}}{{>item}})"))
        library.add(try MustacheTemplate(name: "note", source: "n"))
        library.add(try MustacheTemplate(name: "item", source: "one"))
        #expect(try library.render(templateNamed: "frame", with: [:]) == "(none)")
        let replaced = library["frame"]!
        library.add(try MustacheTemplate(name: "item", source: "two"))
        library.add(try MustacheTemplate(name: "frame", source: "[{{>item}}{{<note}}{{/note}}]"))
        #expect(try library.render(templateNamed: "frame", with: [:]) == "[twon]")
        #expect(try library.render(replaced, with: [:]) == "(ntwo)")
        #expect(try library.render(try MustacheTemplate(name: "item", source: "{{>note}}!"), with: [:]) == "n!")
    }

    /// Pages are written from the buffer they were rendered in, which starts small and
    /// grows: the bytes handed over are the page, however often it grew and whatever went
    /// into it (template text, escaped and raw values, indented partials, numbers).
    @Test func handsOverTheRenderedBytesInPlaceAfterGrowing() throws {
        let library = try MustacheLibrary(sources: [
            "page": "<ul>\n{{#items}}\n  {{>row}}\n{{/items}}\n</ul>{{{raw}}}",
            "row": "<li>{{name}} & {{price}}</li>\n<li>{{name}}</li>\n",
        ])
        let items: [MustacheValue] = (0..<200).map { .fields(["name": .string("Tom & Jerry's <\($0)>"), "price": .int($0)]) }
        let data: MustacheValue = ["items": .array(items), "raw": "<b>é</b>"]
        let rows = (0..<200).map { "  <li>Tom &amp; Jerry&#39;s &lt;\($0)&gt; & \($0)</li>\n  <li>Tom &amp; Jerry&#39;s &lt;\($0)&gt;</li>\n" }
        let expected = Array(("<ul>\n" + rows.joined() + "</ul><b>é</b>").utf8)
        let inPlace = try library.withRenderedBytes(library["page"]!, with: data, sizeHint: 1) { bytes, _ in Array(bytes) }
        #expect(inPlace == expected)
        #expect(try library.renderBytes(library["page"]!, with: data, sizeHint: 1) == expected)
    }

    @Test func leavesTripleMustachesAndAmpersandsUnescaped() throws {
        #expect(try render("{{{x}}}|{{&x}}", ["x": "<b>&</b>"]) == "<b>&</b>|<b>&</b>")
    }

    @Test func printsNumbersAndBooleansAsJSONWould() throws {
        #expect(try render("{{a}} {{b}} {{c}} {{d}}", ["a": 34, "b": 1.5, "c": 2.0, "d": true]) == "34 1.5 2 true")
    }

    @Test func treatsEmptyStringsListsAndZeroAsFalsey() throws {
        #expect(try render("{{#s}}s{{/s}}{{#l}}l{{/l}}{{#z}}z{{/z}}{{^s}}!s{{/s}}{{^z}}!z{{/z}}{{#n}}n{{/n}}", ["s": "", "l": [], "z": 0, "n": 0.5]) == "!s!zn")
    }

    @Test func readsFieldsOfModelTypesThroughTheObjectProtocol() throws {
        let meal = Meal(name: "Kaya toast", price: 34, tags: ["toast", "breakfast"])
        let output = try render("{{#meal}}{{name}} HK$ {{price}}: {{#tags}}[{{.}}]{{/tags}}{{/meal}} {{meal.name}} / {{meal}}", ["meal": .object(meal)])
        #expect(output == "Kaya toast HK$ 34: [toast][breakfast] Kaya toast / Kaya toast (34)")
    }

    @Test func printsUTF8BytesAsItPrintsTheSameString() throws {
        let text = "<p>Caf\u{E9} & \u{8336}</p>"
        let template = "{{x}}|{{{x}}}|{{#x}}yes{{/x}}{{^e}}empty{{/e}}"
        #expect(try render(template, ["x": .utf8(Array(text.utf8)[...]), "e": .utf8([])]) == render(template, ["x": .string(text), "e": ""]))
        #expect(try render("{{>*view}}", ["view": .utf8(Array("part".utf8)[...])], partials: ["part": "from bytes"]) == "from bytes")
        // Bytes are held by reference: a value of more than two words and a tag was copied
        // and destroyed through its value witnesses.
        #expect(MemoryLayout<MustacheValue>.size <= 2 * MemoryLayout<Int>.size + 1)
    }

    @Test func readsASmallRecordOfFieldsAsADictionary() throws {
        var fields: MustacheFields = ["name": "Toast", "price": 34, "name": "ignored"]
        #expect(fields.count == 2)
        #expect(fields["name"].map { MustacheValue.same($0, "Toast") } == true)
        fields["price"] = nil
        fields["meal"] = "Breakfast"
        #expect(fields.entries.map(\.0) == ["name", "meal"])
        let template = "{{#r}}{{name}} {{meal}} [{{price}}] {{outside}}{{/r}} {{r.name}}"
        #expect(try render(template, ["r": .fields(fields), "outside": "x"]) == render(template, ["r": ["name": "Toast", "meal": "Breakfast"], "outside": "x"]))
        // Set one by one into a record with room for them: the same record.
        var made = MustacheFields(reservingCapacity: 3)
        made["name"] = "Toast"
        made["meal"] = "Lunch"
        made["meal"] = "Breakfast"
        #expect(made.entries.map(\.0) == ["name", "meal"])
        #expect(try render(template, ["r": .fields(made), "outside": "x"]) == render(template, ["r": .fields(fields), "outside": "x"]))
    }

    @Test func rendersOneCompiledTemplateManyTimesWithDifferentData() throws {
        let template = try MustacheTemplate(name: "t", source: "Hello {{name}}!")
        let library = MustacheLibrary(templates: [template])
        #expect(try library.render(template, with: ["name": "Ann"]) == "Hello Ann!")
        #expect(try library.render(template, with: ["name": "Bo"]) == "Hello Bo!")
    }

    @Test func indentsEveryLineOfAStandalonePartial() throws {
        let output = try render("<ul>\n  {{>items}}\n</ul>\n", ["list": ["a", "b"]], partials: ["items": "{{#list}}\n<li>{{.}}</li>\n{{/list}}\n"])
        #expect(output == "<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>\n")
    }

    @Test func fillsTheBlocksOfALayout() throws {
        let layout = "<title>{{$title}}Site{{/title}}</title>\n<main>\n  {{$content}}\n  <p>empty</p>\n  {{/content}}\n</main>\n"
        let page = "{{<layout}}\n{{$title}}{{name}} – Site{{/title}}\n{{$content}}\n<h1>{{name}}</h1>\n<p>Hi</p>\n{{/content}}\n{{/layout}}\n"
        let output = try render(page, ["name": "Toast"], partials: ["layout": layout])
        #expect(output == "<title>Toast – Site</title>\n<main>\n  <h1>Toast</h1>\n  <p>Hi</p>\n</main>\n")
    }

    @Test func keepsTheLayoutDefaultWhenABlockIsNotOverridden() throws {
        let output = try render("{{<layout}}{{/layout}}", partials: ["layout": "<title>{{$title}}Site{{/title}}</title>"])
        #expect(output == "<title>Site</title>")
    }

    @Test func rendersEachItemOfAMixedListThroughItsOwnView() throws {
        let partials = ["article.card": "<article>{{title}}</article>", "assignment.row": "<li>{{subject}}</li>", "meal.row": "<p>{{name}}</p>"]
        let items: MustacheValue = [
            ["view": "article.card", "title": "Toast"],
            ["view": "assignment.row", "subject": "Math"],
            .object(Meal(name: "Noodles", price: 40, tags: [])),
        ]
        #expect(try render("{{#items}}{{>*view}}{{/items}}", ["items": items], partials: partials) == "<article>Toast</article><li>Math</li><p>Noodles</p>")
    }

    @Test func changesDelimitersUntilTheEndOfTheTemplateOnly() throws {
        #expect(try render("{{=<% %>=}}<% a %>{{a}}<%>p%>", ["a": "1"], partials: ["p": "{{a}}"]) == "1{{a}}1")
    }

    @Test func rendersMissingPartialsAsNothingByDefault() throws {
        #expect(try render("[{{>nowhere}}]") == "[]")
    }

    @Test func rendersEmptyBytesForAnEmptyTemplate() throws {
        #expect(try render("") == "")
    }

    @Test func isSafeToRenderFromManyThreadsAtOnce() async throws {
        let template = try MustacheTemplate(name: "t", source: "{{#items}}<li>{{>row}}</li>{{/items}}")
        let library = MustacheLibrary(templates: [template, try MustacheTemplate(name: "row", source: "{{.}}")])
        let expected = (0..<50).map { "<li>\($0)</li>" }.joined()
        let data: MustacheValue = ["items": .array((0..<50).map { .int($0) })]
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<16 { group.addTask { try library.render(template, with: data) } }
            for try await output in group { #expect(output == expected) }
        }
    }
}

@Suite("List members")
struct ListMemberTests {
    @Test func listsAnswerCountFirstLastAndIndexes() throws {
        let template = try MustacheTemplate(name: "t", source: "{{items.count}} {{items.first}} {{items.last}} {{items.1}} [{{items.9}}]{{#items.0}} has items{{/items.0}}{{#none.0}} never{{/none.0}}")
        let output = try MustacheLibrary(templates: [template]).render(template, with: ["items": ["a", "b", "c"], "none": []])
        #expect(output == "3 a c b [] has items")
    }
}

@Suite("Used templates")
struct UsedTemplateTests {
    @Test func tellsWhichTemplatesARenderIncluded() throws {
        let library = try MustacheLibrary(sources: [
            "page": "{{<layout}}{{$body}}{{>row}}{{#items}}{{>*view}}{{/items}}{{/body}}{{/layout}}",
            "layout": "<main>{{$body}}{{/body}}</main>", "row": "r", "card": "c", "unused": "u",
        ])
        var used: Set<String> = []
        _ = try library.renderBytes(library["page"]!, with: ["items": [["view": "card"], ["view": "gone"]]], usedTemplates: &used)
        #expect(used == ["page", "layout", "row", "card", "gone"])
    }

    /// The value form names the same templates, and is equal exactly for renders that used
    /// the same ones.
    @Test func tellsItAsAValueEqualForRendersOfTheSameTemplates() throws {
        let library = try MustacheLibrary(sources: [
            "page": "{{<layout}}{{$body}}{{>row}}{{#items}}{{>*view}}{{/items}}{{/body}}{{/layout}}",
            "layout": "<main>{{$body}}{{/body}}</main>", "row": "r", "card": "c", "unused": "u",
        ])
        let cards = try library.renderBytesAndUse(library["page"]!, with: ["items": [["view": "card"], ["view": "gone"]]])
        let again = try library.renderBytesAndUse(library["page"]!, with: ["items": [["view": "gone"], ["view": "card"], ["view": "card"]]])
        let none = try library.renderBytesAndUse(library["page"]!, with: ["items": []])
        let row = try library.renderBytesAndUse(library["row"]!, with: [:])
        #expect(cards.use.names(in: library) == ["page", "layout", "row", "card", "gone"])
        #expect(String(decoding: cards.bytes, as: UTF8.self) == "<main>rc</main>")
        #expect(cards.use == again.use)
        #expect(none.use != cards.use && none.use.names(in: library) == ["page", "layout", "row"])
        #expect(row.use.names(in: library) == ["row"])
        // A template of no library is named as it is.
        let loose = try MustacheTemplate(name: "loose", source: "{{>row}}")
        #expect(try library.renderBytesAndUse(loose, with: [:]).use.names(in: library) == ["loose", "row"])
    }
}

@Suite("HTML escaping")
struct HTMLEscapingTests {
    /// Word by word or byte by byte, every length and every place of the five characters
    /// escapes as a plain scan of the characters would.
    @Test func escapesAsACharacterScanWould() {
        func reference(_ text: String) -> String {
            var result = ""
            for character in text.unicodeScalars {
                switch character {
                case "&": result += "&amp;"
                case "<": result += "&lt;"
                case ">": result += "&gt;"
                case "\"": result += "&quot;"
                case "'": result += "&#39;"
                default: result.unicodeScalars.append(character)
                }
            }
            return result
        }
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "Toast", " ", "&", "<", ">", "\"", "'", "é", "奶茶", "%", "=", "?", "\u{0}", "\u{7F}", "\u{80}", "F"]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(HTMLEscaping.escape(text) == reference(text), "\(text.debugDescription)")
        }
        #expect(HTMLEscaping.escape("Fish & chips at Tom's <b>\"best\"</b>") == "Fish &amp; chips at Tom&#39;s &lt;b&gt;&quot;best&quot;&lt;/b&gt;")
    }
}
