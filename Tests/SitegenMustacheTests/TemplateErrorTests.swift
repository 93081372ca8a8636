import SitegenMustache
import Testing

private func compileError(_ source: String, path: String = "Themes/default/article.mustache") -> String? {
    do {
        _ = try MustacheTemplate(name: "article", source: source, path: path)
        return nil
    } catch {
        return error.description
    }
}

private func renderError(_ source: String, _ data: MustacheValue = [:], partials: [String: String] = [:]) -> String? {
    do {
        var library = try MustacheLibrary(sources: partials, missingTemplates: .fail)
        let template = try MustacheTemplate(name: "page", source: source, path: "Themes/default/page.mustache")
        library.add(template)
        _ = try library.render(template, with: data)
        return nil
    } catch {
        return "\(error)"
    }
}

@Suite("Template errors")
struct TemplateErrorTests {
    @Test func reportsAnUnclosedSectionWhereItWasOpened() {
        let source = "<article>\n  {{#title}}\n    <h1>{{title}}</h1>\n  {{#cover}}\n    <img>\n</article>\n"
        #expect(compileError(source) == "Themes/default/article.mustache:4:3: error: section 'cover' opened here is never closed: expected '{{/cover}}'")
    }

    @Test func reportsAClosingTagThatDoesNotMatchTheOpenSection() {
        let source = "{{#items}}\n  <li>{{name}}</li>\n{{/item}}\n"
        #expect(compileError(source) == "Themes/default/article.mustache:3:1: error: closing tag 'item' does not match section 'items' opened at line 1, column 1: expected '{{/items}}'")
    }

    @Test func reportsAClosingTagWithNothingToClose() {
        #expect(compileError("a\n  b {{/x}}") == "Themes/default/article.mustache:2:5: error: closing tag 'x' has no section to close")
    }

    @Test func reportsAnUnterminatedTagAtItsOpeningDelimiter() {
        #expect(compileError("<p>\n<b>{{title</b>\n") == "Themes/default/article.mustache:2:4: error: tag '{{' opened here is never closed: expected '}}'")
        #expect(compileError("x {{{body}}") == "Themes/default/article.mustache:1:3: error: tag '{{{' opened here is never closed: expected '}}}'")
    }

    @Test func reportsATagWithASpaceInItsNameAsAMissingDelimiter() {
        #expect(compileError("{{first name}}") == "Themes/default/article.mustache:1:1: error: invalid name 'first name': a name has no spaces; is a closing delimiter missing?")
    }

    @Test func reportsATagThatRunsIntoTheNextAtItsOpeningDelimiter() {
        #expect(compileError("{{#article}}<h1>{{title}</h1>{{/article}}") == "Themes/default/article.mustache:1:17: error: tag '{{' opened here is not closed before the next '{{': expected '}}'")
        #expect(compileError("{{a {{b}}") == "Themes/default/article.mustache:1:1: error: tag '{{' opened here is not closed before the next '{{': expected '}}'")
        #expect(compileError("<p>\n {{{body}} {{x}}}") == "Themes/default/article.mustache:2:2: error: tag '{{{' opened here is not closed before the next '{{': expected '}}}'")
        #expect(compileError("{{=<% %>=}}<%a <%b%>") == "Themes/default/article.mustache:1:12: error: tag '<%' opened here is not closed before the next '<%': expected '%>'")
        // A comment may hold anything up to its closing delimiter.
        #expect(compileError("{{! write {{title}} here }}") == nil)
    }

    @Test func reportsAMalformedDelimiterChange() {
        #expect(compileError("ok\n  {{=<% =}}") == "Themes/default/article.mustache:2:3: error: malformed delimiter change '{{=<% =}}': expected two delimiters without '=' or spaces, separated by a space, like '{{=<% %>=}}'")
        #expect(compileError("{{=<% %>}}") != nil)
        #expect(compileError("{{=a=b c=}}") != nil)
    }

    @Test func reportsEmptyTags() {
        #expect(compileError("{{}}") == "Themes/default/article.mustache:1:1: error: empty tag: expected a name inside it")
        #expect(compileError("{{# }}") == "Themes/default/article.mustache:1:1: error: empty '#' tag: expected a name after '#'")
    }

    @Test func reportsABlockGivenTwiceInOneParent() {
        #expect(compileError("{{<layout}}\n{{$a}}1{{/a}}\n{{$a}}2{{/a}}\n{{/layout}}") == "Themes/default/article.mustache:3:1: error: block 'a' is already given at line 2, column 1 of this parent")
    }

    @Test func countsColumnsInCharactersNotBytes() {
        #expect(compileError("café «{{#x}}»") == "Themes/default/article.mustache:1:7: error: section 'x' opened here is never closed: expected '{{/x}}'")
    }

    @Test func reportsAnUnknownPartialWhereItIsNamed() {
        #expect(renderError("<main>\n  {{>footer}}\n</main>") == "Themes/default/page.mustache:2:3: error: unknown partial 'footer': no template of that name")
    }

    @Test func reportsAnUnknownParentWhereItIsNamed() {
        #expect(renderError("{{<base}}{{/base}}") == "Themes/default/page.mustache:1:1: error: unknown parent 'base': no template of that name")
    }

    @Test func findsUnknownFixedPartialsWithoutRendering() throws {
        let library = try MustacheLibrary(sources: ["page": "x\n {{>nav}} {{<base}}{{/base}}", "nav": "n"], paths: ["page": "Themes/t/page.mustache"])
        #expect(library.unresolvedReferences().map(\.description) == ["Themes/t/page.mustache:2:11: error: unknown parent 'base': no template of that name"])
    }

    /// The place of an error is in the template whose tag it is: a partial's own file, the
    /// parent's for its default block, the child's for the block it overrides.
    @Test func reportsAnErrorInTheTemplateThatHasTheTag() throws {
        let paths = ["page": "Themes/t/page.mustache", "card": "Themes/t/card.mustache", "base": "Themes/t/base.mustache", "child": "Themes/t/child.mustache"]
        func error(_ sources: [String: String], _ name: String) throws -> String? {
            let library = try MustacheLibrary(sources: sources, paths: paths, missingTemplates: .fail)
            do {
                _ = try library.render(templateNamed: name, with: [:])
                return nil
            } catch {
                return error.description
            }
        }
        #expect(try error(["page": "<ul>\n{{>card}}\n</ul>", "card": "<li>\n  {{>badge}}"], "page")
            == "Themes/t/card.mustache:2:3: error: unknown partial 'badge': no template of that name")
        #expect(try error(["base": "<main>\n{{$body}}\n {{>missing}}\n{{/body}}</main>", "child": "{{<base}}{{/base}}"], "child")
            == "Themes/t/base.mustache:3:2: error: unknown partial 'missing': no template of that name")
        #expect(try error(["base": "<main>{{$body}}{{/body}}</main>\n{{>card}}", "child": "{{<base}}\n{{$body}}\n  {{>gone}}\n{{/body}}\n{{/base}}", "card": "c"], "child")
            == "Themes/t/child.mustache:3:3: error: unknown partial 'gone': no template of that name")
    }

    @Test func reportsADynamicViewNameThatIsNotAString() {
        #expect(renderError("{{#items}}{{>*view}}{{/items}}", ["items": [["view": 3]]]) == "Themes/default/page.mustache:1:11: error: dynamic name '*view' must be a string naming a template")
    }

    @Test func stopsEndlessRecursionWithAnError() {
        let error = renderError("{{>loop}}", partials: ["loop": "x{{>loop}}"])
        #expect(error == "loop:1:2: error: 'loop' is nested more than 100 templates deep: is a template including itself forever?")
    }

    @Test func refusesSectionsNestedPastTheLimit() {
        let source = "<main>\n" + String(repeating: "{{#a}}", count: 20_000) + String(repeating: "{{/a}}", count: 20_000)
        #expect(compileError(source) == "Themes/default/article.mustache:2:601: error: section 'a' opened here is nested inside 100 others: expected at most 100 levels of sections, parents and blocks in one template")
        let blocks = (0..<120).map { String(repeating: " ", count: $0) + "{{$b\($0)}}\n" }.joined() + (0..<120).reversed().map { "{{/b\($0)}}\n" }.joined()
        #expect(compileError(blocks) == "Themes/default/article.mustache:101:101: error: section 'b100' opened here is nested inside 100 others: expected at most 100 levels of sections, parents and blocks in one template")
    }

    @Test func stopsSectionsAndTemplatesThatNestPastTheLimitTogether() {
        let sections = String(repeating: "{{#t}}", count: 99) + "{{>a}}" + String(repeating: "{{/t}}", count: 99)
        let error = renderError("{{>a}}", ["t": true], partials: ["a": sections])
        #expect(error == "a:1:295: error: section 't' opened here is 250 levels deep, counting the sections, blocks and templates around it: is a template including itself forever?")
    }

    @Test func reportsEveryBrokenTemplateOfALibraryAtOnce() {
        #expect(throws: MustacheLibraryError.self) {
            _ = try MustacheLibrary(sources: ["a": "{{#x}}", "b": "ok", "c": "{{/y}}"])
        }
        do {
            _ = try MustacheLibrary(sources: ["a": "{{#x}}", "b": "ok", "c": "{{/y}}"])
        } catch {
            #expect(error.errors.map(\.path) == ["a", "c"])
        }
    }
}
