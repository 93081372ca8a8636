import Foundation
import SitegenContent
@testable import SitegenImages
@testable import SitegenIncremental
import SitegenPipeline
import SitegenTestSupport
import Synchronization
import Testing

@Suite("Photo folder")
struct PhotoFolderTests {
    private func photo(_ seed: UInt8) -> MadePhoto {
        MadePhoto(images: [320, 640].map { width in
            MadeImage(requestedWidth: width, width: width, height: width / 2, encoding: .webp, bytes: [UInt8](repeating: seed, count: width * 8))
        }, meanColour: "#102030")
    }

    /// Two photos of one build with the same bytes, or two builds of one site, keep the same
    /// photo at once: each must be told of files that are there, whole.
    @Test func theSamePhotoKeptAtOnceIsKeptWhole() throws {
        let folder = TemporaryFolder()
        let store = PhotoFolder(root: folder.url.path)
        let key = PhotoKey(hash: 42, settings: ImageSettings(), isShown: true)
        let made = photo(7)
        let kept = Mutex<[StoredPhoto?]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let stored = store.keep(made, as: key)
            kept.withLock { $0.append(stored) }
        }
        for stored in kept.withLock({ $0 }) {
            let stored = try #require(stored)
            #expect(stored.colour == "#102030")
            #expect(stored.files.count == 2)
            for (name, file) in stored.files {
                guard case .kept(let url, _) = file else { Issue.record("\(name) is not kept"); continue }
                let width = try #require(Int(name.prefix { $0.isNumber }))
                #expect(FileManager.default.contents(atPath: url.path).map(Array.init) == [UInt8](repeating: 7, count: width * 8), "\(name)")
            }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(left == [key.text])
        #expect(store.made(key)?.files.count == 2)
    }
}
