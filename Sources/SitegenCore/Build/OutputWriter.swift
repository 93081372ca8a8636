import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The **write** stage: the whole site goes to a fresh folder beside the output folder,
/// which replaces the output folder only once every file is written.
enum OutputWriter {
    /// Why sitegen will not write to `output`, or nil when it will.
    static func refusal(output: URL, source: URL) -> String? {
        let out = output.resolvingSymlinksInPath().standardizedFileURL.path
        let site = source.resolvingSymlinksInPath().standardizedFileURL.path
        func isInside(_ path: String, _ folder: String) -> Bool { path == folder || path.hasPrefix(folder + "/") }
        if out == site { return "the output folder cannot be the site folder itself (\(output.path))" }
        if isInside(site, out) { return "the output folder \(output.path) contains the site; choose a folder inside or beside it" }
        for protected in ["Content", "Themes"] where isInside(out, site + "/" + protected) {
            return "the output folder \(output.path) is inside \(protected)/; choose a folder outside it"
        }
        if out == "/" { return "the output folder cannot be /" }
        return nil
    }

    /// Writes `files` and returns the number of bytes written.
    static func write(_ files: [OutputFile], to output: URL) throws -> Int {
        let fileManager = FileManager.default
        let parent = output.deletingLastPathComponent()
        try fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
        let suffix = "\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        let staging = parent.appendingPathComponent(".\(output.lastPathComponent).sitegen-new-\(suffix)")
        let retired = parent.appendingPathComponent(".\(output.lastPathComponent).sitegen-old-\(suffix)")
        try fileManager.createDirectory(at: staging, withIntermediateDirectories: false)
        var bytes = 0
        do {
            var folders: Set<String> = [""]
            for file in files {
                guard let relative = safeRelativePath(file.path) else {
                    throw CocoaError(.fileWriteInvalidFileName, userInfo: [NSFilePathErrorKey: file.path])
                }
                let folder = relative.split(separator: "/").dropLast().joined(separator: "/")
                if folders.insert(folder).inserted {
                    try fileManager.createDirectory(at: staging.appendingPathComponent(folder), withIntermediateDirectories: true)
                }
                let target = staging.appendingPathComponent(relative)
                switch file.contents {
                case .bytes(let data):
                    try writeFile(data, to: target.path)
                    bytes += data.count
                case .copy(let source):
                    try fileManager.copyItem(at: source, to: target)
                    bytes += (try? fileManager.attributesOfItem(atPath: target.path)[.size] as? Int) ?? 0
                }
            }
            // Hidden files at the top of the output (.git of a deploy branch, .gitkeep) are kept.
            if let existing = try? fileManager.contentsOfDirectory(atPath: output.path) {
                for name in existing where name.hasPrefix(".") {
                    try fileManager.moveItem(at: output.appendingPathComponent(name), to: staging.appendingPathComponent(name))
                }
            }
        } catch {
            try? fileManager.removeItem(at: staging)
            throw error
        }
        if fileManager.fileExists(atPath: output.path) {
            try fileManager.moveItem(at: output, to: retired)
        }
        try fileManager.moveItem(at: staging, to: output)
        try? fileManager.removeItem(at: retired)
        return bytes
    }

    /// Writes the bytes straight from the rendered buffer, without a Data copy.
    private static func writeFile(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            offset += written
        }
    }

    /// The path as given when it stays inside the output folder; nil when it would leave it.
    static func safeRelativePath(_ path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\0"), !path.contains("\\"),
              parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." })
        else { return nil }
        return path
    }
}
