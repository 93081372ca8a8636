import CCMark
import Foundation
@testable import SitegenMarkdown
import Testing

/// One test at a time: two of them hold every arena for a while, and one checks that an
/// arena is free afterwards (other suites hold one a document, and only while parsing it).
@Suite("Markdown memory", .serialized)
struct MarkdownArenaTests {
    /// The allocators of documents nested two deeper than there are arenas, outermost first,
    /// each taking a block; `reachingCmark` is called when a level first gets cmark's
    /// allocator, before it nests further.
    private func nestingPastTheArenas(reachingCmark: () -> Void = {}) -> [UnsafeMutablePointer<cmark_mem>] {
        var allocators: [UnsafeMutablePointer<cmark_mem>] = []
        func nest(_ depth: Int) {
            guard depth > 0 else { return }
            MarkdownArena.withArena { memory in
                let isCmarks = memory == cmark_get_default_mem_allocator()
                if isCmarks, !allocators.contains(memory) { reachingCmark() }
                allocators.append(memory)
                let block = memory.pointee.calloc(4, 8)
                #expect(block != nil)
                nest(depth - 1)
                // cmark's memory is given back block by block, an arena's all at once.
                if isCmarks { memory.pointee.free(block) }
            }
        }
        nest(MarkdownArena.arenaCount + 2)
        return allocators
    }

    @Test func growsTheLastBlockWhereItIsAndCopiesAnyOther() throws {
        var chunks = MarkdownArena.Chunks()
        defer { chunks.freeAll() }
        let first = try #require({ chunks.allocate(10) }())
        #expect(Int(bitPattern: first) % 16 == 0)
        first.copyMemory(from: Array("0123456789".utf8), byteCount: 10)
        let grown = try #require({ chunks.reallocate(first, 40) }())
        #expect(grown == first)
        let other = try #require({ chunks.allocate(8) }())
        #expect(other != first && Int(bitPattern: other) % 16 == 0)
        let moved = try #require({ chunks.reallocate(first, 100) }())
        #expect(moved != first)
        #expect(Array(UnsafeRawBufferPointer(start: moved, count: 10)) == Array("0123456789".utf8))
        // Larger than a chunk: a chunk of its own, freed by the reset.
        let large = try #require({ chunks.allocate(3 * MarkdownArena.Chunks.chunkSize) }())
        memset(large, 7, 3 * MarkdownArena.Chunks.chunkSize)
        let shrunk = chunks.reallocate(large, 10)
        #expect(shrunk == large)
    }

    @Test func givesEachDocumentParsedAtOnceAnArenaOfItsOwnThenCmarksMemory() throws {
        // Other tests may take and give back arenas meanwhile: those this one holds at once
        // are distinct, and nesting past the count of arenas reaches cmark's allocator (not
        // necessarily at the innermost levels: an arena given back meanwhile is taken again).
        let allocators = nestingPastTheArenas()
        let arenas = allocators.filter { $0 != cmark_get_default_mem_allocator() }
        #expect(Set(arenas).count == arenas.count)
        #expect(arenas.count <= MarkdownArena.arenaCount)
        #expect(allocators.count - arenas.count >= 2)
        // Taken again, the arenas are free: the first document gets one.
        MarkdownArena.withArena { memory in #expect(memory != cmark_get_default_mem_allocator()) }
    }

    /// An arena given back while a document nests past the arenas can be taken by the
    /// next one, below a level with cmark's allocator: each level must give back only its
    /// own memory (an arena's block handed to libc's `free` aborts the process, as this
    /// file's test above did once, in session 35). Other tests may take that arena first.
    @Test func anArenaGivenBackMidwayCanBeTakenByTheNextDocument() {
        let taken = DispatchSemaphore(value: 0)
        let giveBack = DispatchSemaphore(value: 0)
        let givenBack = DispatchSemaphore(value: 0)
        Thread {
            MarkdownArena.withArena { _ in
                taken.signal()
                giveBack.wait()
            }
            givenBack.signal()
        }.start()
        taken.wait()
        let allocators = nestingPastTheArenas {
            giveBack.signal()
            givenBack.wait()
        }
        let arenas = allocators.filter { $0 != cmark_get_default_mem_allocator() }
        #expect(Set(arenas).count == arenas.count)
        #expect(arenas.count <= MarkdownArena.arenaCount)
    }

    @Test func rendersAsCmarkWithItsOwnMemoryDoes() throws {
        // Long enough for many chunks, with every kind of block and inline, and text nodes
        // that cmark joins (its buffers grow by reallocating).
        let block = """
            # Heading *with* `code` and [a link](https://example.org/a?b=c&d)

            A paragraph with **strong**, _emphasis_, "quotes" -- dashes... and a very long line \(String(repeating: "word ", count: 300))
            that goes on.

            > A quote
            > - with a list
            > - of items

            1. one
            2. two

                code block
                indented

            ```swift
            let fenced = true
            ```

            ***

            """
        let source = String(repeating: block, count: 150)
        let options = Markdown.Options(smartPunctuation: true)
        let expected = try #require(cmark_markdown_to_html(source, source.utf8.count, options.cmarkValue))
        defer { free(expected) }
        let rendered = Markdown.html(from: source, options: options)
        #expect(rendered.utf8.count > MarkdownArena.Chunks.chunkSize)
        // Headings get ids from sitegen; everything else is cmark's.
        let pieces = rendered.components(separatedBy: " id=\"")
        let withoutIDs = pieces.dropFirst().reduce(pieces[0]) { text, piece in text + piece.drop { $0 != "\"" }.dropFirst() }
        #expect(withoutIDs == String(cString: expected))
        // The arena's memory is used again for the next document.
        #expect(Markdown.html(from: source, options: options) == rendered)
    }
}
