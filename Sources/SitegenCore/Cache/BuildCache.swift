import Foundation
import SitegenSupport

#if canImport(Glibc)
import Glibc
#endif

/// A file's size and modification time: when both are as before, the file is taken to
/// be as before (as make, rsync and git do).
struct FileStamp: Sendable, Hashable {
    var size: Int
    var modified: Int64

    static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStamp(size: Int(info.st_size), modified: OutputManifest.time(of: info))
    }
}

/// What a build leaves for the next one, outside the published folder and outside the
/// site: every input's stamp, every content file's model, every page's fingerprint and
/// the manifest of the output. A cache that does not read back whole, or was written by
/// another version of sitegen or for other options, is ignored.
struct BuildCache: Sendable {
    static let format = "sitegen-build-cache-3"

    enum Model: Sendable {
        case article(Article)
        case assignment(Assignment)
        case page(Page)
        case none
    }

    struct ContentEntry: Sendable {
        var stamp: FileStamp
        var hash: UInt64
        var model: Model
        var diagnostics: [Diagnostic]
    }

    struct PageEntry: Sendable {
        /// The fingerprint of everything the page shows.
        var fingerprint: UInt64
        /// The templates the page was rendered with, and their hash then.
        var templates: [String]
        var templatesHash: UInt64
    }

    /// The tool version, options and moment the cache was made for.
    var signature: String
    /// site.yaml, teachers.yaml and the list of static files: what every model depends on.
    var contextHash: UInt64
    var inputs: [String: FileStamp] = [:]
    var diagnostics: [Diagnostic] = []
    var content: [String: ContentEntry] = [:]
    var pages: [String: PageEntry] = [:]
    var outputs: [String: OutputManifest.Entry] = [:]
    var pageCount = 0
    var fileCount = 0

    /// `<cache folder>/<hash of the site and output folders>.cache`.
    static func file(in folder: String, site: URL, output: URL) -> String {
        let key = ContentHash.hex(Array((site.standardizedFileURL.path + "\n" + output.standardizedFileURL.path).utf8))
        return folder + "/" + key + ".cache"
    }

    /// `$XDG_CACHE_HOME/sitegen`, or `~/.cache/sitegen`.
    static var defaultFolder: String {
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/sitegen" }
        return (environment["HOME"] ?? NSTemporaryDirectory()) + "/.cache/sitegen"
    }

    /// The cache at `path`, or nil when there is none or it does not read back whole.
    static func load(from path: String) -> BuildCache? {
        guard let bytes = FileReader.read(path) else { return nil }
        var reader = BinaryReader(bytes)
        do throws(BinaryReader.Corrupt) {
            guard try reader.string() == format else { return nil }
            var cache = BuildCache(signature: try reader.string(), contextHash: try reader.unsigned())
            cache.pageCount = try reader.integer()
            cache.fileCount = try reader.integer()
            for _ in 0..<(try reader.count()) {
                cache.inputs[try reader.string()] = FileStamp(size: try reader.integer(), modified: Int64(try reader.integer()))
            }
            cache.diagnostics = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.diagnostic() }
            for _ in 0..<(try reader.count()) {
                let path = try reader.string()
                let stamp = FileStamp(size: try reader.integer(), modified: Int64(try reader.integer()))
                let hash = try reader.unsigned()
                let model: Model
                switch try reader.integer() {
                case 0: model = .none
                case 1: model = .article(try reader.article())
                case 2: model = .assignment(try reader.assignment())
                case 3: model = .page(try reader.page())
                default: throw BinaryReader.Corrupt()
                }
                let diagnostics = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.diagnostic() }
                cache.content[path] = ContentEntry(stamp: stamp, hash: hash, model: model, diagnostics: diagnostics)
            }
            for _ in 0..<(try reader.count()) {
                let path = try reader.string()
                cache.pages[path] = PageEntry(fingerprint: try reader.unsigned(),
                                              templates: try reader.array { reader throws(BinaryReader.Corrupt) in try reader.string() },
                                              templatesHash: try reader.unsigned())
            }
            for _ in 0..<(try reader.count()) {
                let path = try reader.string()
                cache.outputs[path] = OutputManifest.Entry(size: try reader.integer(), modified: Int64(try reader.integer()), hash: try reader.unsigned())
            }
            guard reader.isAtEnd else { return nil }
            return cache
        } catch {
            return nil
        }
    }

    /// Writes the cache atomically; a cache that cannot be written only costs speed.
    func save(to path: String) {
        var writer = BinaryWriter()
        writer.string(BuildCache.format)
        writer.string(signature)
        writer.unsigned(contextHash)
        writer.integer(pageCount)
        writer.integer(fileCount)
        writer.unsigned(UInt64(inputs.count))
        for (path, stamp) in inputs.sorted(by: { $0.key < $1.key }) {
            writer.string(path)
            writer.integer(stamp.size)
            writer.integer(Int(stamp.modified))
        }
        writer.array(diagnostics) { $0.diagnostic($1) }
        writer.unsigned(UInt64(content.count))
        for (path, entry) in content.sorted(by: { $0.key < $1.key }) {
            writer.string(path)
            writer.integer(entry.stamp.size)
            writer.integer(Int(entry.stamp.modified))
            writer.unsigned(entry.hash)
            switch entry.model {
            case .none: writer.integer(0)
            case .article(let article): writer.integer(1); writer.article(article)
            case .assignment(let assignment): writer.integer(2); writer.assignment(assignment)
            case .page(let page): writer.integer(3); writer.page(page)
            }
            writer.array(entry.diagnostics) { $0.diagnostic($1) }
        }
        writer.unsigned(UInt64(pages.count))
        for (path, entry) in pages.sorted(by: { $0.key < $1.key }) {
            writer.string(path)
            writer.unsigned(entry.fingerprint)
            writer.array(entry.templates) { $0.string($1) }
            writer.unsigned(entry.templatesHash)
        }
        writer.unsigned(UInt64(outputs.count))
        for (path, entry) in outputs.sorted(by: { $0.key < $1.key }) {
            writer.string(path)
            writer.integer(entry.size)
            writer.integer(Int(entry.modified))
            writer.unsigned(entry.hash)
        }
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = path + ".\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(writer.bytes)) else { return }
        if rename(temporary, path) != 0 { unlink(temporary) }
        BuildCache.prune(folder, keeping: path)
    }

    /// Caches of sites not built for a month are removed, so the folder does not grow forever.
    private static func prune(_ folder: String, keeping kept: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let limit = Int64(Date().addingTimeInterval(-30 * 86_400).timeIntervalSince1970) * 1_000_000_000
        for name in names where name.hasSuffix(".cache") && folder + "/" + name != kept {
            if let stamp = FileStamp.of(folder + "/" + name), stamp.modified < limit { unlink(folder + "/" + name) }
        }
    }
}

/// FNV-1a over several values, for fingerprints of what a page shows.
struct Fingerprint {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
        value ^= 0xFF
        value &*= 0x0000_0100_0000_01b3
    }

    mutating func add(_ text: String) { add(text.utf8) }

    mutating func add(_ number: UInt64) {
        withUnsafeBytes(of: number.littleEndian) { add($0) }
    }

    mutating func add(_ number: Int) { add(UInt64(bitPattern: Int64(number))) }
}
