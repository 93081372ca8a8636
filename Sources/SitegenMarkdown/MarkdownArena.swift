import CCMark
import Foundation
import Synchronization

/// Memory for cmark while it parses and renders one document: blocks are taken one after
/// the other from chunks, never freed one by one, and given back all at once when the
/// document is done. cmark allocates every node, buffer and string on its own and frees
/// them one by one, which through malloc is costly on both cores at once.
///
/// cmark's allocator functions take no context: each of a few arenas has functions of its
/// own, fixed to it, and a document takes a free arena for as long as it is parsed and
/// rendered (a thread-specific pointer would cost as much as taking the block). Nothing
/// cmark allocates outlives `withArena`: callers copy what they keep into Swift values.
enum MarkdownArena {
    /// How many documents can have an arena at once; more (more threads than this) get
    /// cmark's own allocator.
    static let arenaCount = 8

    /// The arenas, each kept from document to document, each on cache lines of its own: two
    /// cores taking blocks from arenas side by side in one line would spend their time
    /// handing it back and forth. Made by `allocators`, before cmark has any function that
    /// uses them: made on first use instead, as a `static let`, each of cmark's allocations
    /// would first ask the runtime whether they were made.
    // Written once, by `allocators`; then each arena only by the document that took it
    // (`taken` says which).
    nonisolated(unsafe) private static var arenas = Arenas(base: nil)

    struct Arenas {
        private static let stride = 128
        private let base: UnsafeMutableRawPointer?

        init(base: UnsafeMutableRawPointer?) {
            self.base = base
        }

        static func make() -> Arenas {
            precondition(MemoryLayout<Chunks>.size <= Arenas.stride, "sitegen: a Markdown arena takes more than its cache lines")
            let base = UnsafeMutableRawPointer.allocate(byteCount: Arenas.stride * MarkdownArena.arenaCount, alignment: Arenas.stride)
            for arena in 0..<MarkdownArena.arenaCount {
                (base + arena * Arenas.stride).initializeMemory(as: Chunks.self, to: Chunks())
            }
            return Arenas(base: base)
        }

        subscript(arena: Int) -> Chunks {
            @inline(__always) unsafeAddress { UnsafePointer((base.unsafelyUnwrapped + arena * Arenas.stride).assumingMemoryBound(to: Chunks.self)) }
            @inline(__always) nonmutating unsafeMutableAddress { (base.unsafelyUnwrapped + arena * Arenas.stride).assumingMemoryBound(to: Chunks.self) }
        }
    }

    /// Which arenas are taken, a bit each.
    private static let taken = Atomic<UInt64>(0)

    @inline(__always)
    private static func zeroed(_ arena: Int, _ count: Int, _ size: Int) -> UnsafeMutableRawPointer? {
        guard let block = arenas[arena].allocate(count * size) else { fatalError("sitegen: out of memory") }
        memset(block, 0, count * size)
        return block
    }

    @inline(__always)
    private static func resized(_ arena: Int, _ block: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
        guard let grown = arenas[arena].reallocate(block, size) else { fatalError("sitegen: out of memory") }
        return grown
    }

    /// The allocator of each arena: its functions name it.
    // Written once, then only read.
    nonisolated(unsafe) private static let allocators: UnsafeMutablePointer<cmark_mem> = {
        arenas = Arenas.make()
        let allocators = UnsafeMutablePointer<cmark_mem>.allocate(capacity: arenaCount)
        let functions: [(calloc: @convention(c) (Int, Int) -> UnsafeMutableRawPointer?, realloc: @convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer?)] = [
            ({ zeroed(0, $0, $1) }, { resized(0, $0, $1) }),
            ({ zeroed(1, $0, $1) }, { resized(1, $0, $1) }),
            ({ zeroed(2, $0, $1) }, { resized(2, $0, $1) }),
            ({ zeroed(3, $0, $1) }, { resized(3, $0, $1) }),
            ({ zeroed(4, $0, $1) }, { resized(4, $0, $1) }),
            ({ zeroed(5, $0, $1) }, { resized(5, $0, $1) }),
            ({ zeroed(6, $0, $1) }, { resized(6, $0, $1) }),
            ({ zeroed(7, $0, $1) }, { resized(7, $0, $1) }),
        ]
        precondition(functions.count == arenaCount, "sitegen: one pair of allocator functions per Markdown arena")
        for (arena, pair) in functions.enumerated() {
            (allocators + arena).initialize(to: cmark_mem(calloc: pair.calloc, realloc: pair.realloc, free: { _ in }))
        }
        return allocators
    }()

    /// Calls `body` with an allocator for cmark whose memory is given back when it returns:
    /// a free arena's, or cmark's own when every arena is taken.
    static func withArena<Result>(_ body: (UnsafeMutablePointer<cmark_mem>) throws -> Result) rethrows -> Result {
        guard let arena = take() else { return try body(cmark_get_default_mem_allocator()) }
        defer {
            arenas[arena].reset()
            taken.bitwiseAnd(~(UInt64(1) << UInt64(arena)), ordering: .releasing)
        }
        return try body(allocators + arena)
    }

    private static func take() -> Int? {
        var bits = taken.load(ordering: .relaxed)
        while true {
            let arena = (~bits).trailingZeroBitCount
            guard arena < arenaCount else { return nil }
            let (exchanged, found) = taken.compareExchange(expected: bits, desired: bits | UInt64(1) << UInt64(arena), ordering: .acquiring)
            if exchanged { return arena }
            bits = found
        }
    }

    /// An arena's chunks: the first one, made by the arena's first document, is kept from
    /// document to document; the ones a large document needs besides are freed after it.
    /// Each chunk starts with the address of the chunk made before it; each block with its
    /// size, 16 bytes before it.
    struct Chunks {
        static let chunkSize = 256 * 1024
        private static let header = 16

        private var first: UnsafeMutableRawPointer?
        private var newest: UnsafeMutableRawPointer?
        /// Where the next block goes and where the newest chunk ends: no room at all until
        /// the first block is asked for.
        private var top = UnsafeMutableRawPointer(bitPattern: header)!
        private var end = UnsafeMutableRawPointer(bitPattern: header)!
        /// The block given last, which can grow where it is.
        private var last: UnsafeMutableRawPointer?

        private static func rounded(_ size: Int) -> Int { (size + 15) & ~15 }

        /// A block of `size` bytes, 16-byte aligned; nil when memory is out.
        @inline(__always)
        mutating func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
            let need = Chunks.header + Chunks.rounded(size)
            if end - top < need, !addChunk(for: need) { return nil }
            top.storeBytes(of: size, as: Int.self)
            let block = top + Chunks.header
            top += need
            last = block
            return block
        }

        /// Starts a chunk with room for `need` bytes; false when memory is out.
        @inline(never)
        private mutating func addChunk(for need: Int) -> Bool {
            let capacity = max(Chunks.chunkSize, need + Chunks.header)
            guard let chunk = malloc(capacity) else { return false }
            chunk.storeBytes(of: newest, as: UnsafeMutableRawPointer?.self)
            if first == nil { first = chunk }
            newest = chunk
            top = chunk + Chunks.header
            end = chunk + capacity
            return true
        }

        /// `block` with room for `size` bytes: grown where it is when it was the last one
        /// given and its chunk has room, else copied into a new block.
        @inline(__always)
        mutating func reallocate(_ block: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
            guard let block else { return allocate(size) }
            let old = (block - Chunks.header).load(as: Int.self)
            if size <= old { return block }
            if block == last, end - block >= Chunks.rounded(size) {
                (block - Chunks.header).storeBytes(of: size, as: Int.self)
                top = block + Chunks.rounded(size)
                return block
            }
            guard let moved = allocate(size) else { return nil }
            moved.copyMemory(from: block, byteCount: old)
            return moved
        }

        /// Frees the chunks made besides the first and starts the first again.
        mutating func reset() {
            guard let first else { return }
            while let chunk = newest, chunk != first {
                newest = chunk.load(as: UnsafeMutableRawPointer?.self)
                free(chunk)
            }
            top = first + Chunks.header
            end = first + Chunks.chunkSize
            last = nil
        }

        /// Frees every chunk, the first too: for chunks that are no arena's, which lives as
        /// long as the process.
        mutating func freeAll() {
            reset()
            guard let first else { return }
            free(first)
            self = Chunks()
        }
    }
}
