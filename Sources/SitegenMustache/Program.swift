/// A template's nodes laid out flat for the renderer: one buffer of fixed-size operations,
/// the text of the template in one buffer of bytes, the names split at their dots in one
/// buffer of strings. A section's or block's body is the operations that follow it, up to
/// its `end`.
///
/// Walking a tree of nodes would retain and release the arrays and strings of every node it
/// passed; these buffers hold nothing the renderer counts references of. They are made
/// once, never change, and are freed with the program.
final class Program: @unchecked Sendable {
    struct Operation {
        enum Kind: UInt8 {
            /// `text` bytes `a..<b`, its line starts `c..<d` in `lineStarts`.
            case text
            /// The name's components `a..<a+b` (none: `.`); `c` is 1 when escaped.
            case variable
            /// Name as for a variable; the body runs to `c`; `d` is 1 when inverted.
            case section
            /// `references[a]`, its standalone indentation `indents[d]` (-1: none).
            case partial
            /// `references[a]` with the overrides `overrides[b]`, whose bodies run to `c`;
            /// indentation as for a partial.
            case parent
            /// `blockNames[a]`, its default body to `c`; indentation as for a partial.
            case block
        }

        var kind: Kind
        var startsLine: Bool
        var a: Int32
        var b: Int32
        var c: Int32
        var d: Int32
    }

    /// A parent's override of a block: its name and body.
    struct Override {
        var name: String
        var body: Range<Int>
    }

    let operations: UnsafeBufferPointer<Operation>
    let bytes: UnsafeBufferPointer<UInt8>
    let lineStarts: UnsafeBufferPointer<Int32>
    let components: UnsafeBufferPointer<String>
    /// Of each operation, for the errors rendering can meet.
    let positions: [TemplatePosition]
    let references: [TemplateReference]
    let indents: [[UInt8]]
    let blockNames: [String]
    let overrides: [[Override]]

    /// The template's, for the errors rendering meets in it: kept here, the renderer has it
    /// with the operations instead of keeping the path of each template it enters.
    let path: String

    var count: Int { operations.count }

    init(_ nodes: [Node], path: String) {
        self.path = path
        var builder = Builder()
        builder.add(nodes)
        operations = Program.buffer(copying: builder.operations)
        bytes = Program.buffer(copying: builder.bytes)
        lineStarts = Program.buffer(copying: builder.lineStarts)
        components = Program.buffer(copying: builder.components)
        positions = builder.positions
        references = builder.references
        indents = builder.indents
        blockNames = builder.blockNames
        overrides = builder.overrides
    }

    private static func buffer<Element>(copying elements: [Element]) -> UnsafeBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = buffer.initialize(fromContentsOf: elements)
        return UnsafeBufferPointer(buffer)
    }

    deinit {
        operations.deallocate()
        bytes.deallocate()
        lineStarts.deallocate()
        UnsafeMutableBufferPointer(mutating: components).deinitialize()
        components.deallocate()
    }

    private struct Builder {
        var operations: [Operation] = []
        var positions: [TemplatePosition] = []
        var bytes: [UInt8] = []
        var lineStarts: [Int32] = []
        var components: [String] = []
        var references: [TemplateReference] = []
        var indents: [[UInt8]] = []
        var blockNames: [String] = []
        var overrides: [[Override]] = []

        mutating func add(_ nodes: [Node]) {
            for node in nodes { add(node) }
        }

        /// Appends an operation and returns its place, for a body's end to be set later.
        private mutating func emit(_ kind: Operation.Kind, _ tag: Tag?, a: Int = 0, b: Int = 0, c: Int = 0, d: Int = 0) -> Int {
            operations.append(Operation(kind: kind, startsLine: tag?.startsLine ?? false, a: Int32(a), b: Int32(b), c: Int32(c), d: Int32(d)))
            positions.append(tag?.position ?? TemplatePosition(line: 1, column: 1))
            return operations.count - 1
        }

        private mutating func name(_ name: Name) -> (start: Int, count: Int) {
            let start = components.count
            components.append(contentsOf: name.components)
            return (start, name.components.count)
        }

        private mutating func indent(_ indent: [UInt8]?) -> Int {
            guard let indent else { return -1 }
            indents.append(indent)
            return indents.count - 1
        }

        private mutating func add(_ node: Node) {
            switch node {
            case .text(let text):
                let start = bytes.count
                let firstLine = lineStarts.count
                bytes.append(contentsOf: text.bytes)
                lineStarts.append(contentsOf: text.lineStarts.map { Int32($0) })
                _ = emit(.text, nil, a: start, b: bytes.count, c: firstLine, d: lineStarts.count)
            case .variable(let variable, let escaped, let tag):
                let (start, count) = name(variable)
                _ = emit(.variable, tag, a: start, b: count, c: escaped ? 1 : 0)
            case .section(let section, let inverted, let children, let tag):
                let (start, count) = name(section)
                let place = emit(.section, tag, a: start, b: count, d: inverted ? 1 : 0)
                add(children)
                operations[place].c = Int32(operations.count)
            case .partial(let reference, let standaloneIndent, let tag):
                references.append(reference)
                _ = emit(.partial, tag, a: references.count - 1, d: indent(standaloneIndent))
            case .parent(let reference, let standaloneIndent, let blocks, let tag):
                references.append(reference)
                overrides.append([])
                let list = overrides.count - 1
                let place = emit(.parent, tag, a: references.count - 1, b: list, d: indent(standaloneIndent))
                for name in blocks.keys.sorted() {
                    let start = operations.count
                    add(blocks[name]!)
                    overrides[list].append(Override(name: name, body: start..<operations.count))
                }
                operations[place].c = Int32(operations.count)
            case .block(let name, let children, let standaloneIndent, let tag):
                blockNames.append(name)
                let place = emit(.block, tag, a: blockNames.count - 1, d: indent(standaloneIndent))
                add(children)
                operations[place].c = Int32(operations.count)
            }
        }
    }
}
