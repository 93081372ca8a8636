import Foundation
@testable import SitegenFiles
import SitegenPlatform
import SitegenSupport
import Synchronization
import Testing

/// Writes the file's pages to disk and has the kernel drop them from memory.
func drop(_ path: String) {
    let descriptor = open(path, O_RDONLY)
    fsync(descriptor)
    _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
    close(descriptor)
}

/// Whether the first page of the file at `path` is in memory.
func isInMemory(_ path: String) -> Bool {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    guard let mapped = mmap(nil, 1, PROT_READ, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED else { return true }
    defer { munmap(mapped, 1) }
    var page: UInt8 = 0
    return mincore(mapped, 1, &page) == 0 && page & 1 != 0
}

/// A site in a new temporary folder whose Content/articles/ holds `names` (folders where a
/// name has a "/"), each file holding its name.
func siteOfArticles(_ names: [String]) throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-listing-\(UUID().uuidString)")
    for name in names {
        let file = root.appendingPathComponent("Content/articles/" + name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(name.utf8).write(to: file)
    }
    try Data().write(to: root.appendingPathComponent("Content/site.yaml"))
    return root
}
