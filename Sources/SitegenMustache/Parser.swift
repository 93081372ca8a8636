/// Turns template source into nodes in three passes: split the source into text and
/// tags, find the standalone lines and cut them out, then build the tree.
struct Parser {
    private let source: [UInt8]
    private let path: String
    private let origin: Origin
    private let lineIndex: [Int]
    /// Of a source that is not all ASCII, how many characters come before each byte: a
    /// column is then a subtraction, not a count from the start of its line, which made a
    /// long line of tags quadratic.
    private let charactersBefore: [Int32]?

    /// How many sections, inverted sections, parents and blocks one template may nest: far
    /// more than a theme needs, few enough that building and rendering stay off the end
    /// of a thread's stack.
    static let nestingLimit = 100

    /// Where the first byte of `source` sits in the file the user edits. A block's body
    /// is parsed again after its indentation is removed; its positions still point at
    /// the file, and its nesting adds to the block's.
    struct Origin {
        var line: Int = 1
        var columnShift: Int = 0
        var depth: Int = 0
    }

    init(source: [UInt8], path: String, origin: Origin = Origin()) {
        self.source = source
        self.path = path
        self.origin = origin
        var starts = [0]
        for (offset, byte) in source.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(offset + 1)
        }
        self.lineIndex = starts
        if source.allSatisfy({ $0 < 0x80 }) {
            charactersBefore = nil
        } else {
            var counts = [Int32](repeating: 0, count: source.count + 1)
            var count: Int32 = 0
            for (offset, byte) in source.enumerated() {
                counts[offset] = count
                if byte & 0xC0 != 0x80 { count += 1 }
            }
            counts[source.count] = count
            charactersBefore = counts
        }
    }

    func parse(delimiters: Delimiters = .standard) throws(MustacheError) -> [Node] {
        var tokens = try tokenize(delimiters: delimiters)
        markStandaloneLines(&tokens)
        return try buildTree(tokens, 0..<tokens.count, depth: origin.depth)
    }

    // MARK: Positions

    func position(at offset: Int) -> TemplatePosition {
        var low = 0
        var high = lineIndex.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineIndex[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        // Columns count characters as the editor shows them.
        let columns = charactersBefore.map { Int($0[offset] - $0[lineIndex[low]]) } ?? offset - lineIndex[low]
        return TemplatePosition(line: origin.line + low, column: columns + 1 + origin.columnShift)
    }

    private func error(at offset: Int, _ kind: MustacheError.Kind) -> MustacheError {
        MustacheError(path: path, position: position(at: offset), kind: kind)
    }

    // MARK: Pass 1: tokens

    private func tokenize(delimiters initial: Delimiters) throws(MustacheError) -> [Token] {
        var tokens: [Token] = []
        var delimiters = initial
        var index = 0
        var textStart = 0
        let end = source.count
        while index < end {
            guard source[index] == delimiters.open[0], matches(delimiters.open, at: index) else {
                index += 1
                continue
            }
            if index > textStart {
                tokens.append(Token(kind: .text, start: textStart, end: index, delimiters: delimiters))
            }
            let token = try readTag(at: index, delimiters: delimiters)
            if case .setDelimiters(let new) = token.kind {
                delimiters = new
            }
            tokens.append(token)
            index = token.end
            textStart = index
        }
        if textStart < end {
            tokens.append(Token(kind: .text, start: textStart, end: end, delimiters: delimiters))
        }
        return tokens
    }

    private func matches(_ pattern: [UInt8], at index: Int) -> Bool {
        guard index + pattern.count <= source.count else { return false }
        for offset in 0..<pattern.count where source[index + offset] != pattern[offset] {
            return false
        }
        return true
    }

    private func find(_ pattern: [UInt8], from start: Int, before end: Int? = nil) -> Int? {
        var index = start
        let end = end ?? source.count
        while index + pattern.count <= end {
            if source[index] == pattern[0], matches(pattern, at: index) { return index }
            index += 1
        }
        return nil
    }

    private func readTag(at start: Int, delimiters: Delimiters) throws(MustacheError) -> Token {
        let contentStart = start + delimiters.open.count
        let openText = String(decoding: delimiters.open, as: UTF8.self)
        let closeText = String(decoding: delimiters.close, as: UTF8.self)
        if contentStart < source.count, source[contentStart] == UInt8(ascii: "{") {
            let closing = [UInt8(ascii: "}")] + delimiters.close
            guard let contentEnd = find(closing, from: contentStart + 1) else {
                throw error(at: start, .unterminatedTag(opener: openText + "{", expected: "}" + closeText))
            }
            try checkClosedBeforeNextTag(start, contentStart + 1, contentEnd, delimiters: delimiters, opener: openText + "{", expected: "}" + closeText)
            let name = try validName(contentStart + 1, contentEnd, sigil: "{", tagStart: start)
            return Token(kind: .variable(escaped: false), start: start, end: contentEnd + closing.count, name: name, delimiters: delimiters)
        }
        guard let contentEnd = find(delimiters.close, from: contentStart) else {
            throw error(at: start, .unterminatedTag(opener: openText, expected: closeText))
        }
        let end = contentEnd + delimiters.close.count
        var cursor = contentStart
        while cursor < contentEnd, isSpace(source[cursor]) { cursor += 1 }
        let sigil: UInt8? = cursor < contentEnd ? source[cursor] : nil
        func token(_ kind: TokenKind, name: String = "", dynamic: Bool = false) -> Token {
            Token(kind: kind, start: start, end: end, name: name, dynamic: dynamic, delimiters: delimiters)
        }
        if sigil != UInt8(ascii: "!") { try checkClosedBeforeNextTag(start, contentStart, contentEnd, delimiters: delimiters, opener: openText, expected: closeText) }
        switch sigil {
        case UInt8(ascii: "!"):
            return token(.comment)
        case UInt8(ascii: "="):
            return token(.setDelimiters(try newDelimiters(cursor, contentEnd, tagStart: start, tagEnd: end)))
        case UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "/"), UInt8(ascii: "&"), UInt8(ascii: "$"):
            let sigilText = String(UnicodeScalar(sigil!))
            let name = try validName(cursor + 1, contentEnd, sigil: sigilText, tagStart: start)
            switch sigil {
            case UInt8(ascii: "#"): return token(.sectionOpen, name: name)
            case UInt8(ascii: "^"): return token(.invertedOpen, name: name)
            case UInt8(ascii: "/"): return token(.close, name: name)
            case UInt8(ascii: "$"): return token(.blockOpen, name: name)
            default: return token(.variable(escaped: false), name: name)
            }
        case UInt8(ascii: ">"), UInt8(ascii: "<"):
            var nameStart = cursor + 1
            while nameStart < contentEnd, isSpace(source[nameStart]) { nameStart += 1 }
            let dynamic = nameStart < contentEnd && source[nameStart] == UInt8(ascii: "*")
            if dynamic { nameStart += 1 }
            let sigilText = (sigil == UInt8(ascii: ">") ? ">" : "<") + (dynamic ? "*" : "")
            let name = try validName(nameStart, contentEnd, sigil: sigilText, tagStart: start)
            return token(sigil == UInt8(ascii: ">") ? .partial : .parentOpen, name: name, dynamic: dynamic)
        default:
            return token(.variable(escaped: true), name: try validName(cursor, contentEnd, sigil: "", tagStart: start))
        }
    }

    /// `{{title}</h1>{{/article}}` would read as one tag named `title}</h1>{{/article`:
    /// a tag (but a comment) that holds an opening delimiter was left unclosed before it.
    private func checkClosedBeforeNextTag(_ tagStart: Int, _ contentStart: Int, _ contentEnd: Int, delimiters: Delimiters, opener: String, expected: String) throws(MustacheError) {
        guard find(delimiters.open, from: contentStart, before: contentEnd) != nil else { return }
        throw error(at: tagStart, .tagRunsIntoNextTag(opener: opener, next: String(decoding: delimiters.open, as: UTF8.self), expected: expected))
    }

    private func validName(_ start: Int, _ end: Int, sigil: String, tagStart: Int) throws(MustacheError) -> String {
        var low = start
        var high = end
        while low < high, isSpace(source[low]) { low += 1 }
        while high > low, isSpace(source[high - 1]) { high -= 1 }
        guard low < high else { throw error(at: tagStart, .emptyTag(sigil: sigil)) }
        let name = String(decoding: source[low..<high], as: UTF8.self)
        if source[low..<high].contains(where: isSpace) {
            throw error(at: tagStart, .invalidTagName(name: name))
        }
        return name
    }

    private func newDelimiters(_ start: Int, _ end: Int, tagStart: Int, tagEnd: Int) throws(MustacheError) -> Delimiters {
        let malformed = error(at: tagStart, .malformedDelimiters(found: String(decoding: source[tagStart..<tagEnd], as: UTF8.self)))
        var high = end
        while high > start, isSpace(source[high - 1]) { high -= 1 }
        guard high - start >= 2, source[high - 1] == UInt8(ascii: "=") else { throw malformed }
        let parts = source[(start + 1)..<(high - 1)].split(whereSeparator: isSpace)
        guard parts.count == 2, !parts.contains(where: { $0.contains(UInt8(ascii: "=")) }) else { throw malformed }
        return Delimiters(open: Array(parts[0]), close: Array(parts[1]))
    }

    // MARK: Pass 2: standalone lines

    /// A line holding nothing but whitespace and tags that print nothing (sections,
    /// comments, partials, parents, blocks, delimiter changes) is removed from the
    /// output with its newline. The whitespace before a partial or parent on such a
    /// line indents every line it includes.
    private func markStandaloneLines(_ tokens: inout [Token]) {
        var first = 0
        while first < tokens.count {
            guard tokens[first].isTag else {
                first += 1
                continue
            }
            var last = first
            while last + 1 < tokens.count, tokens[last + 1].isTag { last += 1 }
            markRun(first, last, in: &tokens)
            first = last + 1
        }
    }

    private func markRun(_ first: Int, _ last: Int, in tokens: inout [Token]) {
        guard tokens[first...last].allSatisfy(\.canStandAlone) else { return }
        var indentRange = 0..<0
        if first > 0 {
            let text = tokens[first - 1]
            let lastNewline = source[text.originalStart..<text.originalEnd].lastIndex(of: UInt8(ascii: "\n"))
            guard lastNewline != nil || first - 1 == 0 else { return }
            let lineStart = lastNewline.map { $0 + 1 } ?? text.originalStart
            guard source[lineStart..<text.originalEnd].allSatisfy(isSpace) else { return }
            indentRange = lineStart..<text.originalEnd
        }
        var lineEnd: Int?
        if last + 1 < tokens.count {
            let text = tokens[last + 1]
            if let newline = source[text.originalStart..<text.originalEnd].firstIndex(of: UInt8(ascii: "\n")) {
                guard source[text.originalStart..<newline].allSatisfy(isSpaceOrReturn) else { return }
                lineEnd = newline + 1
            } else {
                guard last + 1 == tokens.count - 1, source[text.originalStart..<text.originalEnd].allSatisfy(isSpaceOrReturn) else { return }
                lineEnd = text.originalEnd
            }
        }
        // An empty block slot (`{{$name}}{{/name}}`) alone on its line keeps the line's
        // newline: its content is indented into the line, not put in place of it.
        let isEmptyBlockSlot = last == first + 1 && tokens[first].kind == .blockOpen
            && tokens[last].kind == .close && tokens[last].name == tokens[first].name
        let indent = Array(source[indentRange])
        for index in first...last {
            tokens[index].standalone = true
            tokens[index].indent = indent
        }
        if first > 0 { tokens[first - 1].end = min(tokens[first - 1].end, indentRange.lowerBound) }
        if let lineEnd, !isEmptyBlockSlot {
            tokens[last + 1].start = max(tokens[last + 1].start, lineEnd)
        }
    }

    // MARK: Pass 3: the tree

    private struct Frame {
        var token: Int
        var children: [Node] = []
    }

    /// The nodes of `tokens[range]`, whose sections all close inside it. A standalone
    /// block's body is built once, from its dedented text when it has a margin to lose,
    /// not first as it stands and then again.
    private func buildTree(_ tokens: [Token], _ range: Range<Int>, depth: Int) throws(MustacheError) -> [Node] {
        var stack: [Frame] = [Frame(token: -1)]
        var index = range.lowerBound
        while index < range.upperBound {
            let token = tokens[index]
            index += 1
            switch token.kind {
            case .text:
                guard token.start < token.end else { continue }
                stack[stack.count - 1].children.append(.text(text(of: token)))
            case .comment, .setDelimiters:
                continue
            case .variable(let escaped):
                stack[stack.count - 1].children.append(.variable(Name(token.name), escaped: escaped, tag(token)))
            case .partial:
                let node = Node.partial(reference(token), standaloneIndent: token.standalone ? token.indent : nil, tag(token))
                stack[stack.count - 1].children.append(node)
            case .sectionOpen, .invertedOpen, .parentOpen, .blockOpen:
                let level = depth + stack.count
                guard level <= Self.nestingLimit else {
                    throw error(at: token.start, .nestedTooDeep(name: openerName(token), limit: Self.nestingLimit))
                }
                guard token.kind == .blockOpen, token.standalone else {
                    stack.append(Frame(token: index - 1))
                    continue
                }
                let closer = try matchingCloser(of: index - 1, in: tokens, before: range.upperBound)
                stack[stack.count - 1].children.append(try standaloneBlock(opener: index - 1, closer: closer, tokens: tokens, depth: level))
                index = closer + 1
            case .close:
                guard stack.count > 1 else {
                    throw error(at: token.start, .unexpectedClosingTag(name: token.name))
                }
                let frame = stack.removeLast()
                let opener = tokens[frame.token]
                guard closes(token, opener) else {
                    throw error(at: token.start, .mismatchedClosingTag(
                        expected: openerName(opener), found: token.name, openedAt: position(at: opener.start)))
                }
                stack[stack.count - 1].children.append(try node(closing: frame, opener: opener))
            }
        }
        if stack.count > 1, let open = stack.last {
            let opener = tokens[open.token]
            throw error(at: opener.start, .unclosedSection(name: openerName(opener)))
        }
        return stack[0].children
    }

    /// The close tag of the section `opener` opens, with the errors building the tree
    /// would give for the tags in between.
    private func matchingCloser(of opener: Int, in tokens: [Token], before end: Int) throws(MustacheError) -> Int {
        var open = [opener]
        for index in (opener + 1)..<end {
            switch tokens[index].kind {
            case .sectionOpen, .invertedOpen, .parentOpen, .blockOpen:
                open.append(index)
            case .close:
                let innermost = tokens[open[open.count - 1]]
                guard closes(tokens[index], innermost) else {
                    throw error(at: tokens[index].start, .mismatchedClosingTag(
                        expected: openerName(innermost), found: tokens[index].name, openedAt: position(at: innermost.start)))
                }
                open.removeLast()
                if open.isEmpty { return index }
            default:
                continue
            }
        }
        throw error(at: tokens[open[open.count - 1]].start, .unclosedSection(name: openerName(tokens[open[open.count - 1]])))
    }

    private func openerName(_ token: Token) -> String {
        token.dynamic ? "*" + token.name : token.name
    }

    private func closes(_ closer: Token, _ opener: Token) -> Bool {
        closer.name == openerName(opener) || (opener.dynamic && closer.name == opener.name)
    }

    private func node(closing frame: Frame, opener: Token) throws(MustacheError) -> Node {
        let openerTag = tag(opener)
        switch opener.kind {
        case .sectionOpen, .invertedOpen:
            return .section(Name(opener.name), inverted: opener.kind == .invertedOpen, children: frame.children, openerTag)
        case .parentOpen:
            var blocks: [String: [Node]] = [:]
            var firstPositions: [String: TemplatePosition] = [:]
            for child in frame.children {
                guard case .block(let name, let content, _, let blockTag) = child else { continue }
                if let firstAt = firstPositions[name] {
                    throw MustacheError(path: path, position: blockTag.position, kind: .duplicateBlock(name: name, firstAt: firstAt))
                }
                firstPositions[name] = blockTag.position
                blocks[name] = content
            }
            return .parent(reference(opener), standaloneIndent: opener.standalone ? opener.indent : nil, blocks: blocks, openerTag)
        default:
            return .block(opener.name, children: frame.children, standaloneIndent: nil, openerTag)
        }
    }

    /// A standalone block's body loses the indentation its lines share, so that the
    /// block can be indented again wherever it is expanded.
    private func standaloneBlock(opener: Int, closer: Int, tokens: [Token], depth: Int) throws(MustacheError) -> Node {
        let openerToken = tokens[opener]
        let children: [Node]
        var indent = openerToken.indent
        if let (body, margin) = dedentedBody(opener: opener, closer: closer, tokens: tokens) {
            let start = position(at: body.start)
            let fragment = Parser(source: body.bytes, path: path, origin: Origin(line: start.line, columnShift: margin.count, depth: depth))
            children = try fragment.parse(delimiters: openerToken.delimiters)
            indent = margin
        } else {
            children = try buildTree(tokens, (opener + 1)..<closer, depth: depth)
        }
        return .block(openerToken.name, children: children, standaloneIndent: indent, tag(openerToken))
    }

    /// The body of the block between `opener` and `closer` without the margin its lines
    /// share, where it starts, and the margin; nil when there is no margin.
    private func dedentedBody(opener: Int, closer: Int, tokens: [Token]) -> (body: (bytes: [UInt8], start: Int), margin: [UInt8])? {
        let bodyStart = opener + 1 < closer && !tokens[opener + 1].isTag ? tokens[opener + 1].start : tokens[opener].end
        let bodyEnd = closer - 1 > opener && !tokens[closer - 1].isTag ? tokens[closer - 1].end : tokens[closer].start
        guard bodyStart < bodyEnd else { return nil }
        let body = source[bodyStart..<bodyEnd]
        let lines = body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        var margin: ArraySlice<UInt8>?
        for line in lines where !line.allSatisfy(isSpaceOrReturn) {
            let indentation = line.prefix(while: isSpace)
            guard let current = margin else {
                margin = indentation
                continue
            }
            margin = current.prefix(zip(current, indentation).prefix(while: { $0 == $1 }).count)
        }
        guard let margin, !margin.isEmpty else { return nil }
        var dedented: [UInt8] = []
        dedented.reserveCapacity(body.count)
        for (number, line) in lines.enumerated() {
            if number > 0 { dedented.append(UInt8(ascii: "\n")) }
            let removable = zip(line, margin).prefix(while: { $0 == $1 }).count
            dedented.append(contentsOf: line.dropFirst(removable))
        }
        return ((dedented, bodyStart), Array(margin))
    }

    private func reference(_ token: Token) -> TemplateReference {
        token.dynamic ? .dynamic(Name(token.name)) : .named(token.name)
    }

    private func tag(_ token: Token) -> Tag {
        Tag(position: position(at: token.start), startsLine: !token.standalone && startsLine(at: token.start))
    }

    private func startsLine(at offset: Int) -> Bool {
        offset == 0 || source[offset - 1] == UInt8(ascii: "\n")
    }

    private func text(of token: Token) -> Text {
        var lineStarts: [Int] = []
        let bytes = Array(source[token.start..<token.end])
        func isContent(_ offset: Int) -> Bool {
            offset < bytes.count && bytes[offset] != UInt8(ascii: "\n")
                && !(bytes[offset] == UInt8(ascii: "\r") && offset + 1 < bytes.count && bytes[offset + 1] == UInt8(ascii: "\n"))
        }
        if startsLine(at: token.start), isContent(0) { lineStarts.append(0) }
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") && isContent(offset + 1) {
            lineStarts.append(offset + 1)
        }
        return Text(bytes: bytes, lineStarts: lineStarts)
    }
}
