import SitegenBytes

/// Runs compiled templates against a context stack and appends UTF-8 to one buffer.
struct Renderer: ~Copyable {
    private let library: MustacheLibrary
    private(set) var output: OutputBytes
    private var stack: [MustacheValue]
    /// Block overrides in force: the outermost template's override of a name wins. A page
    /// has a handful: a list searched by name costs less than hashing the name.
    private var blocks: [(name: String, content: BlockContent)] = []
    private var depth = 0
    /// Sections, blocks and templates open around the operation being rendered: each is a
    /// call of `render`, and a template of 100 sections that includes itself would go
    /// 10,000 calls deep, past the end of a thread's stack, before `depth` stopped it.
    private var levels = 0
    static let levelLimit = 250
    /// Names of the templates this render included, for rebuilds that re-render only the
    /// pages an edited template is part of.
    private(set) var usedTemplates = TemplateUse()
    private let memo: MustachePartialMemo?
    /// What a rendering being remembered depended on: the lowest frame of the stack a
    /// lookup read, whether blocks were consulted, and how deep templates went.
    private var lowestFrameRead = Int.max
    private var readBlocks = false
    private var deepest = 0
    /// How many names were looked up so far: a partial that added none reads nothing.
    private var lookups = 0

    struct BlockContent {
        var program: Program
        var body: Range<Int>
    }

    init(library: MustacheLibrary, root: MustacheValue, sizeHint: Int, memo: MustachePartialMemo?) {
        self.library = library
        self.memo = memo
        self.stack = [root]
        output = OutputBytes(capacity: sizeHint)
    }

    /// Renders the operations `range` of `program`.
    mutating func render(_ program: Program, _ range: Range<Int>, indent: [UInt8]) throws(MustacheError) {
        let operations = program.operations
        var place = range.lowerBound
        while place < range.upperBound {
            let operation = operations[place]
            if operation.startsLine, !indent.isEmpty { output.append(indent) }
            switch operation.kind {
            case .text:
                append(program, operation, indent: indent)
                place += 1

            case .variable:
                if let value = lookup(program.components, Int(operation.a), Int(operation.b)) { interpolate(value, escaped: operation.c != 0) }
                place += 1

            case .section:
                let body = (place + 1)..<Int(operation.c)
                try deepen(program, at: place)
                defer { levels -= 1 }
                let value = lookup(program.components, Int(operation.a), Int(operation.b)) ?? .null
                if operation.d != 0 {
                    if !value.isTruthy { try render(program, body, indent: indent) }
                } else if case .array(let items) = value {
                    // By index: each item is copied once, onto the stack, not also into a
                    // loop variable.
                    for index in items.indices {
                        stack.append(items[index])
                        try render(program, body, indent: indent)
                        stack.removeLast()
                    }
                } else if value.isTruthy {
                    stack.append(value)
                    try render(program, body, indent: indent)
                    stack.removeLast()
                }
                place = body.upperBound

            case .partial:
                let position = program.positions[place]
                place += 1
                guard let template = try resolve(program.references[Int(operation.a)], isParent: false, at: position, in: program) else { continue }
                let partialIndent = operation.d >= 0 ? Self.indent(indent, program.indents[Int(operation.d)]) : []
                if let memo {
                    let identity = stack[stack.count - 1].unretainedBox?._withUnsafeGuaranteedRef { $0.object.mustacheIdentity }
                    try includeRemembered(template, indent: partialIndent, at: position, in: program, memo: memo, identity: identity)
                } else {
                    try include(template, indent: partialIndent, at: position, in: program)
                }

            case .parent:
                let position = program.positions[place]
                place = Int(operation.c)
                guard let template = try resolve(program.references[Int(operation.a)], isParent: true, at: position, in: program) else { continue }
                readBlocks = true
                let saved = blocks
                for override in program.overrides[Int(operation.b)] where !blocks.contains(where: { $0.name == override.name }) {
                    blocks.append((override.name, BlockContent(program: program, body: override.body)))
                }
                defer { blocks = saved }
                try include(template, indent: operation.d >= 0 ? Self.indent(indent, program.indents[Int(operation.d)]) : [], at: position, in: program)

            case .block:
                let body = (place + 1)..<Int(operation.c)
                let name = program.blockNames[Int(operation.a)]
                let position = program.positions[place]
                place = body.upperBound
                readBlocks = true
                try deepen(program, at: body.lowerBound - 1)
                defer { levels -= 1 }
                guard let override = blocks.first(where: { $0.name == name })?.content else {
                    try render(program, body, indent: operation.d >= 0 ? Self.indent(indent, program.indents[Int(operation.d)]) : indent)
                    continue
                }
                try enter(name, at: position, in: program)
                try render(override.program, override.body, indent: operation.d >= 0 ? Self.indent(indent, program.indents[Int(operation.d)]) : [])
                depth -= 1
                levels -= 1
            }
        }
    }

    /// A standalone tag's indentation inside `outer`: the tag's own when there is no outer
    /// one, instead of a new array for every indented partial of every page.
    private static func indent(_ outer: [UInt8], _ own: [UInt8]) -> [UInt8] {
        outer.isEmpty ? own : outer + own
    }

    /// `template` where `program` includes it.
    private mutating func include(_ template: MustacheTemplate, indent: [UInt8], at position: TemplatePosition, in program: Program) throws(MustacheError) {
        usedTemplates.insert(template)
        try enter(template.name, at: position, in: program)
        try render(template.program, 0..<template.program.count, indent: indent)
        depth -= 1
        levels -= 1
    }

    /// Includes a partial through the memo: as it was rendered before when it read no name
    /// at all, or (given an `identity`, of a context that is an object) when it read nothing
    /// but that object; else rendered, and kept when it was either.
    private mutating func includeRemembered(_ template: MustacheTemplate, indent: [UInt8], at position: TemplatePosition, in program: Program, memo: MustachePartialMemo,
                                            identity: MustacheIdentity?) throws(MustacheError) {
        let staticHash = MustachePartialMemo.hash(template, nil, indent)
        let hash = identity.map { MustachePartialMemo.hash(template, $0, indent) }
        if let entry = memo.entry(hash: staticHash, template, nil, indent) ?? hash.flatMap({ memo.entry(hash: $0, template, identity, indent) }),
           depth + entry.depth <= library.nestingLimit {
            output.append(entry.bytes)
            usedTemplates.formUnion(entry.usedTemplates)
            return
        }
        let floor = stack.count - 1
        let saved = (lowestFrameRead: lowestFrameRead, readBlocks: readBlocks, usedTemplates: usedTemplates, deepest: deepest)
        lowestFrameRead = .max
        readBlocks = false
        usedTemplates = TemplateUse()
        deepest = depth
        let start = output.count
        let lookupsBefore = lookups
        try include(template, indent: indent, at: position, in: program)
        let readNothing = lookups == lookupsBefore
        if !readBlocks, let keptHash = readNothing ? staticHash : lowestFrameRead >= floor ? hash : nil {
            let kept = MustachePartialMemo.Entry(template: template, identity: readNothing ? nil : identity, indent: indent, bytes: output.array(from: start),
                                                 usedTemplates: usedTemplates, depth: deepest - depth)
            memo.keep(kept, hash: keptHash)
        }
        lowestFrameRead = min(saved.lowestFrameRead, lowestFrameRead)
        readBlocks = saved.readBlocks || readBlocks
        usedTemplates.formUnion(saved.usedTemplates)
        deepest = max(saved.deepest, deepest)
    }

    /// Counts one more level for the section or block at `place` of `program`.
    private mutating func deepen(_ program: Program, at place: Int) throws(MustacheError) {
        levels += 1
        guard levels <= Self.levelLimit else {
            let operation = program.operations[place]
            let name = operation.kind == .block ? program.blockNames[Int(operation.a)]
                : program.components[Int(operation.a)..<Int(operation.a + operation.b)].joined(separator: ".")
            throw MustacheError(path: program.path, position: program.positions[place], kind: .renderedTooDeep(name: name.isEmpty ? "." : name, limit: Self.levelLimit))
        }
    }

    private mutating func enter(_ name: String, at position: TemplatePosition, in program: Program) throws(MustacheError) {
        levels += 1
        depth += 1
        deepest = max(deepest, depth)
        if depth > library.nestingLimit {
            throw MustacheError(path: program.path, position: position, kind: .recursionTooDeep(name: name, limit: library.nestingLimit))
        }
    }

    private mutating func resolve(_ reference: TemplateReference, isParent: Bool, at position: TemplatePosition, in program: Program) throws(MustacheError) -> MustacheTemplate? {
        let name: String
        switch reference {
        case .named(let fixed):
            name = fixed
        case .dynamic(let expression):
            switch lookup(expression) {
            case .string(let found):
                name = found
            case .bytes(let text):
                name = String(decoding: text.bytes, as: UTF8.self)
            case nil where library.missingTemplates == .renderNothing:
                usedTemplates.missing.insert("*" + expression.source)
                return nil
            default:
                guard library.missingTemplates == .fail else { return nil }
                throw MustacheError(path: program.path, position: position, kind: .dynamicNameNotString(expression: expression.source))
            }
        }
        if let template = library.templates[name] { return template }
        usedTemplates.missing.insert(name)
        guard library.missingTemplates == .fail else { return nil }
        throw MustacheError(path: program.path, position: position, kind: isParent ? .unknownParent(name: name) : .unknownPartial(name: name))
    }

    /// `a.b.c`: the first frame from the top that has `a`, then `b` and `c` inside it,
    /// with no going back down the stack once `a` is found. The name is `components[start..<start + count]`.
    private mutating func lookup(_ components: UnsafeBufferPointer<String>, _ start: Int, _ count: Int) -> MustacheValue? {
        lookups += 1
        guard count > 0 else { return stack.last }
        let first = components[start]
        var index = stack.count - 1
        while index >= 0 {
            if var value = member(ofFrame: index, first) {
                lowestFrameRead = min(lowestFrameRead, index)
                var next = start + 1
                while next < start + count {
                    guard let found = value.member(components[next]) else { return nil }
                    value = found
                    next += 1
                }
                return value
            }
            index -= 1
        }
        // A name not found anywhere depends on every frame.
        lowestFrameRead = 0
        return nil
    }

    /// An object frame is asked in place, not retained first (see `unretainedBox`).
    @inline(__always)
    private func member(ofFrame index: Int, _ key: String) -> MustacheValue? {
        if let box = stack[index].unretainedBox { return box._withUnsafeGuaranteedRef { $0.object.mustacheMember(key) } }
        return stack[index].member(key)
    }

    private mutating func lookup(_ name: Name) -> MustacheValue? {
        name.components.withUnsafeBufferPointer { lookup($0, 0, $0.count) }
    }

    /// A text operation's bytes, `indent` at the start of each of its lines.
    private mutating func append(_ program: Program, _ operation: Program.Operation, indent: [UInt8]) {
        let text = UnsafeBufferPointer(rebasing: program.bytes[Int(operation.a)..<Int(operation.b)])
        guard !indent.isEmpty, operation.c < operation.d else {
            output.append(text)
            return
        }
        var written = 0
        for line in Int(operation.c)..<Int(operation.d) {
            let start = Int(program.lineStarts[line])
            output.append(UnsafeBufferPointer(rebasing: text[written..<start]))
            output.append(indent)
            written = start
        }
        output.append(UnsafeBufferPointer(rebasing: text[written...]))
    }

    private mutating func interpolate(_ value: MustacheValue, escaped: Bool) {
        switch value {
        case .string(let string):
            if escaped { HTMLEscaping.append(string, to: &output) } else { output.append(string) }
        case .bytes(let text):
            if escaped { HTMLEscaping.append(text.bytes, to: &output) } else { output.append(text.bytes) }
        case .int(let number):
            output.append(String(number))
        case .double(let number):
            output.append(Self.format(number))
        case .bool(let flag):
            output.append(flag ? "true" : "false")
        case .boxed(let box):
            guard let text = box.object.mustacheText else { return }
            if escaped { HTMLEscaping.append(text, to: &output) } else { output.append(text) }
        case .null, .array, .dictionary, .fields:
            return
        }
    }

    private static func format(_ number: Double) -> String {
        if number.magnitude < 1e15, Double(Int(number)) == number { return String(Int(number)) }
        return String(number)
    }
}

/// How `{{name}}` escapes a value; public so that HTML made outside templates is escaped
/// the same way.
public enum HTMLEscaping {
    /// `string` with `& < > " '` escaped, safe in element content and in quoted attributes.
    public static func escape(_ string: String) -> String {
        var output = OutputBytes(capacity: string.utf8.count + 16)
        append(string, to: &output)
        return String(decoding: output.array(), as: UTF8.self)
    }

    /// Escapes `& < > " '` so a value is safe in element content and in quoted attributes;
    /// a native string's bytes are read where they are (see `OutputBytes.append(_:)`).
    static func append(_ string: String, to output: inout OutputBytes) {
        append(string.utf8, to: &output)
    }

    static func append<Bytes: Collection>(_ bytes: Bytes, to output: inout OutputBytes) where Bytes.Element == UInt8 {
        if bytes.withContiguousStorageIfAvailable({ append($0, to: &output) }) != nil { return }
        append(Array(bytes), to: &output)
    }

    /// Eight bytes at a time: a word with none of the five characters is passed whole
    /// (nearly every word of titles, summaries and URLs), a word with one byte by byte.
    static func append(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout OutputBytes) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var run = 0
        var index = 0
        while index < count {
            if index + 8 <= count, !mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let end = Swift.min(index + 8, count)
            while index < end {
                let replacement: StaticString?
                switch base[index] {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                default: replacement = nil
                }
                if let replacement {
                    output.append(UnsafeBufferPointer(start: base + run, count: index - run))
                    replacement.withUTF8Buffer { output.append($0) }
                    run = index + 1
                }
                index += 1
            }
        }
        output.append(UnsafeBufferPointer(start: base + run, count: count - run))
    }

    /// Whether any byte of `word` is `& < > " '`.
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        (ByteLanes.equal(to: UInt8(ascii: "&"), in: word) | ByteLanes.equal(to: UInt8(ascii: "<"), in: word) | ByteLanes.equal(to: UInt8(ascii: ">"), in: word)
            | ByteLanes.equal(to: UInt8(ascii: "\""), in: word) | ByteLanes.equal(to: UInt8(ascii: "'"), in: word)) != 0
    }
}
