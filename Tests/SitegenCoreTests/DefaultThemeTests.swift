import Foundation
@testable import SitegenCore
import Testing

@Suite("Default theme")
struct DefaultThemeTests {
    @Test func theBinaryCarriesExactlyThemesDefault() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Themes/default")
        var onDisk: [String: [UInt8]] = [:]
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]))
        for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let path = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
            if path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            onDisk[path] = Array(try Data(contentsOf: url))
        }
        #expect(Set(DefaultTheme.paths) == Set(onDisk.keys), "run Scripts/embed-files.py")
        for (path, bytes) in onDisk {
            #expect(DefaultTheme.file(path) == bytes, "\(path) differs from the embedded copy: run Scripts/embed-files.py")
        }
    }

    @Test func compilesWithEveryRequiredTemplate() {
        let log = DiagnosticLog()
        let theme = Theme.load(from: [:], name: "default", log: log)
        #expect(log.entries.isEmpty)
        #expect(theme != nil)
        for name in Theme.requiredTemplates { #expect(theme?.library[name] != nil) }
    }
}
