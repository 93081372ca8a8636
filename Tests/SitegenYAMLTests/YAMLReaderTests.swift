import SitegenSupport
import SitegenYAML
import Testing

private func read(_ text: String, firstLine: Int = 2) throws(Diagnostic) -> YAMLNode? {
    try YAMLReader.read(Array(text.utf8), path: "Content/a.md", firstLine: firstLine)
}

private func error(_ text: String, firstLine: Int = 2) -> String? {
    do {
        _ = try read(text, firstLine: firstLine)
        return nil
    } catch {
        return error.description
    }
}

@Suite("YAML reader")
struct YAMLReaderTests {
    @Test func keepsTheLineAndColumnOfEveryKeyAndValue() throws {
        let node = try #require(try read("title: Lovely Breakfast\ncover: {src: toast.jpg, alt: Toast}\ntags:\n  - toast\n  - \"milk tea\"\n"))
        let pairs = try #require(node.mapping)
        #expect(pairs.map(\.key) == ["title", "cover", "tags"])
        #expect(pairs[0].keyLocation.description == "Content/a.md:2:1")
        #expect(pairs[0].value.location.description == "Content/a.md:2:8")
        let cover = try #require(pairs[1].value.mapping)
        #expect(cover[1].value.location.description == "Content/a.md:3:30")
        let tags = try #require(pairs[2].value.sequence)
        #expect(tags.map { $0.scalar?.text } == ["toast", "milk tea"])
        #expect(tags.map { $0.scalar?.style } == [.plain, .quoted])
        #expect(tags[1].location.description == "Content/a.md:6:5")
    }

    @Test func readsAnEmptyDocumentAsNothing() throws {
        #expect(try read("") == nil)
        #expect(try read("# only a comment\n") == nil)
    }

    @Test func reportsADuplicateKeyAtItsSecondUse() {
        #expect(error("title: A\ndate: 2016-05-20\ntitle: B\n") == "Content/a.md:4:1: error: duplicate key 'title': it is already given at line 2")
        // Many keys, each looked up once: the duplicate at the end of 40,000 is found where it is.
        let keys = (0..<40_000).map { "k\($0): v" }.joined(separator: "\n")
        #expect(error(keys + "\nk17: again\n") == "Content/a.md:40002:1: error: duplicate key 'k17': it is already given at line 19")
    }

    @Test func reportsSyntaxErrorsWithTheirPosition() {
        #expect(error("title: [unclosed\n") == "Content/a.md:3:1: error: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence at line 2, column 8)")
        #expect(error("a: b: c\n") == "Content/a.md:2:5: error: invalid YAML: mapping values are not allowed in this context")
    }

    @Test func stopsABillionLaughsQuicklyInLittleMemory() {
        var text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        var previous = "a"
        for name in ["b", "c", "d", "e", "f", "g", "h", "i"] {
            text += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
            previous = name
        }
        let message = error(text)
        #expect(message?.hasSuffix("error: YAML expands to more than 100000 values (are aliases repeating each other?)") == true)
    }

    @Test func countsEachNestedValueOnce() throws {
        // 15,000 scalars six levels deep are 15,006 values, not six times as many.
        let deep = "a:\n b:\n  c:\n   d:\n    e:\n     f:\n" + (0..<15_000).map { "      - \($0)" }.joined(separator: "\n") + "\n"
        #expect(error(deep) == nil)
        let tooMany = "list:\n" + (0..<100_000).map { "  - \($0)" }.joined(separator: "\n") + "\n"
        // The root, the key and the list are three values: the 99,998th item is one too many.
        #expect(error(tooMany) == "Content/a.md:100000:5: error: YAML expands to more than 100000 values (are aliases repeating each other?)")
    }

    @Test func refusesNestingDeeperThanTheLimit() {
        #expect(error(String(repeating: "[", count: 200)) == "Content/a.md:2:65: error: YAML nested more than 64 levels deep")
    }

    @Test func reportsAnAliasWithoutAnchor() {
        #expect(error("a: *nowhere\n") == "Content/a.md:2:4: error: unknown alias '*nowhere': no '&nowhere' before it")
    }

    @Test func refusesAListAsAKey() {
        #expect(error("? [a, b]\n: c\n") == "Content/a.md:2:3: error: expected a key like 'title:', found a list used as a key")
    }

    @Test func refusesASecondDocument() {
        #expect(error("a: 1\n---\nb: 2\n") == "Content/a.md:3:1: error: expected one YAML document, found a second one ('---' starts a new document)")
    }
}

@Suite("Front matter")
struct FrontMatterTests {
    @Test func splitsFrontMatterFromTheBodyWithLineNumbers() throws {
        let file = Array("---\ntitle: A\n---\nBody\n".utf8)
        let document = try FrontMatter.split(file, path: "a.md")
        #expect(String(decoding: document.frontMatter, as: UTF8.self) == "title: A\n")
        #expect(document.frontMatterFirstLine == 2)
        #expect(String(decoding: document.body, as: UTF8.self) == "Body\n")
        #expect(document.bodyFirstLine == 4)
    }

    @Test func acceptsAByteOrderMarkAndCRLF() throws {
        let file: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("---\r\ntitle: A\r\n---\r\nBody\r\n".utf8)
        let document = try FrontMatter.split(file, path: "a.md")
        #expect(String(decoding: document.frontMatter, as: UTF8.self) == "title: A\r\n")
        #expect(String(decoding: document.body, as: UTF8.self) == "Body\r\n")
    }

    @Test func requiresTheOpeningFence() {
        #expect(throws: Diagnostic.self) { try FrontMatter.split(Array("title: A\n".utf8), path: "a.md") }
        do {
            _ = try FrontMatter.split(Array("title: A\n".utf8), path: "a.md")
        } catch {
            #expect(error.description == "a.md:1:1: error: expected front matter: the file must start with a line of exactly '---', found 'title: A'")
        }
    }

    @Test func requiresTheClosingFence() {
        do {
            _ = try FrontMatter.split(Array("---\ntitle: A\n".utf8), path: "a.md")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "a.md:1:1: error: front matter opened here is never closed: expected a line of exactly '---' after it")
        }
    }

    @Test func findsTheFirstInvalidUTF8Byte() {
        let bytes = Array("ok\nab".utf8) + [0xC3, 0x28]
        #expect(UTF8Check.firstInvalidByte(in: bytes, path: "a.md")?.description == "a.md:2:3: error: invalid UTF-8: byte 0xC3 is not part of a character; save the file as UTF-8")
        #expect(UTF8Check.firstInvalidByte(in: Array("café\n".utf8), path: "a.md") == nil)
    }

    @Test func acceptsExactlyWhatTheStandardLibraryCallsUTF8() {
        var generator = SystemRandomNumberGenerator()
        // Pieces of valid text, edge scalars, and the bytes that make UTF-8 ill-formed:
        // stray continuations, overlong forms, surrogates, scalars past U+10FFFF, cut-off
        // sequences and bytes that never appear.
        let valid = ["a", "plain text ", "\n", "é", "—", "奶茶", "🍜", "\u{7F}", "\u{80}", "\u{7FF}", "\u{800}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}", "\u{D7FF}", "\u{E000}"]
            .map { Array($0.utf8) }
        let invalid: [[UInt8]] = [[0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
                                  [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xFE],
                                  [0xC3], [0xE4, 0xB8], [0xF0, 0x9F, 0x8D], [0xC3, 0x28], [0xE4, 0x28, 0xB8]]
        for round in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...24, using: &generator) {
                bytes += Int.random(in: 0..<8, using: &generator) == 0 ? invalid.randomElement(using: &generator)! : valid.randomElement(using: &generator)!
            }
            if round % 4 == 0, !bytes.isEmpty { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect(bytes.withUnsafeBufferPointer(UTF8Check.isValid) == expected, "\(bytes)")
            #expect((UTF8Check.firstInvalidByte(in: bytes, path: "a.md") == nil) == expected, "\(bytes)")
        }
    }
}
