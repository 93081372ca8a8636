import CCMark
import Foundation

/// Memory for cmark while it parses and renders one document: blocks are taken one after
/// the other from chunks kept by each thread, never freed one by one, and given back all at
/// once when the document is done. cmark allocates every node, buffer and string on its own
/// and frees them one by one; through malloc that was a tenth of the instructions of a site
/// of articles, on both cores at once.
///
/// cmark's allocator functions take no context, so each thread finds its arena through a
/// thread-specific pointer. Nothing cmark allocates outlives `withArena`: callers copy what
/// they keep into Swift values.
enum MarkdownArena {
    /// The allocator cmark is given; its functions use the calling thread's arena.
    // Written once, then only read: the functions it holds find their arena per thread.
    nonisolated(unsafe) private static let allocator: UnsafeMutablePointer<cmark_mem> = {
        let allocator = UnsafeMutablePointer<cmark_mem>.allocate(capacity: 1)
        allocator.initialize(to: cmark_mem(
            calloc: { count, size in
                guard let block = Chunks.current.pointee.allocate(count * size) else { fatalError("sitegen: out of memory") }
                memset(block, 0, count * size)
                return block
            },
            realloc: { block, size in
                guard let grown = Chunks.current.pointee.reallocate(block, size) else { fatalError("sitegen: out of memory") }
                return grown
            },
            free: { _ in }
        ))
        return allocator
    }()

    /// Calls `body` with an allocator for cmark whose memory is given back when it returns.
    /// A call within another (it does not happen) gets cmark's own allocator.
    static func withArena<Result>(_ body: (UnsafeMutablePointer<cmark_mem>) throws -> Result) rethrows -> Result {
        let chunks = Chunks.current
        guard !chunks.pointee.inUse else { return try body(cmark_get_default_mem_allocator()) }
        chunks.pointee.inUse = true
        defer {
            chunks.pointee.reset()
            chunks.pointee.inUse = false
        }
        return try body(allocator)
    }

    /// A thread's chunks: the first one is kept from document to document, the ones a large
    /// document needs besides are freed after it. Each chunk starts with the address of the
    /// chunk made before it; each block with its size, 16 bytes before it.
    struct Chunks {
        static let chunkSize = 256 * 1024
        private static let header = 16

        var inUse = false
        private let first: UnsafeMutableRawPointer
        private var newest: UnsafeMutableRawPointer
        private var top: UnsafeMutableRawPointer
        private var end: UnsafeMutableRawPointer
        /// The block given last, which can grow where it is.
        private var last: UnsafeMutableRawPointer?

        private static let key: pthread_key_t = {
            var key = pthread_key_t()
            let made = pthread_key_create(&key) { state in
                guard let state else { return }
                let chunks = state.assumingMemoryBound(to: Chunks.self)
                chunks.pointee.reset()
                free(chunks.pointee.first)
                chunks.deinitialize(count: 1)
                chunks.deallocate()
            }
            precondition(made == 0, "sitegen: no thread-specific key for Markdown memory")
            return key
        }()

        /// The calling thread's chunks, made on first use. Inlined into cmark's allocator
        /// functions, which run millions of times per thousand articles: a call per block
        /// cost as much as taking it.
        static var current: UnsafeMutablePointer<Chunks> {
            @inline(__always) get {
                if let state = pthread_getspecific(key) { return state.assumingMemoryBound(to: Chunks.self) }
                return made()
            }
        }

        @inline(never)
        private static func made() -> UnsafeMutablePointer<Chunks> {
            let chunks = UnsafeMutablePointer<Chunks>.allocate(capacity: 1)
            chunks.initialize(to: Chunks())
            pthread_setspecific(key, chunks)
            return chunks
        }

        init() {
            guard let chunk = malloc(Chunks.chunkSize) else { fatalError("sitegen: out of memory") }
            chunk.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
            first = chunk
            newest = chunk
            top = chunk + Chunks.header
            end = chunk + Chunks.chunkSize
        }

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
            chunk.storeBytes(of: newest, as: UnsafeMutableRawPointer.self)
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
            while newest != first {
                let before = newest.load(as: UnsafeMutableRawPointer.self)
                free(newest)
                newest = before
            }
            top = first + Chunks.header
            end = first + Chunks.chunkSize
            last = nil
        }
    }
}
