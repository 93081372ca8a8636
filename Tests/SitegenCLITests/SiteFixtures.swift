import Foundation

/// Paths of the repository, found from this file so tests run from any folder.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let brokenSites = root.appendingPathComponent("Tests/Fixtures/broken-sites")
    static let allowedCases = root.appendingPathComponent("Tests/Fixtures/allowed-cases")
    static let golden = root.appendingPathComponent("Tests/Golden/sample-site")
}

/// Every file under a folder with its bytes and modification date, to tell whether a
/// build touched it.
struct FolderSnapshot: Equatable {
    var files: [String: Data]
    var dates: [String: Date]

    init(_ folder: URL) {
        files = [:]
        dates = [:]
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.contentModificationDateKey, .isRegularFileKey]) else { return }
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
            files[path] = FileManager.default.contents(atPath: url.path)
            dates[path] = try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate
        }
    }
}

func copyFolder(_ source: URL, to destination: URL) throws {
    try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: source, to: destination)
}
