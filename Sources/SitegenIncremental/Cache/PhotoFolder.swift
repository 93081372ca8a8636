import Foundation
import SitegenFiles
import SitegenImages
import SitegenPipeline
import SitegenPlatform
import SitegenSupport
import Synchronization

/// The files made of a site's photos, kept beside its build cache: one folder per photo
/// and settings (`PhotoKey`), holding each made file and a `manifest` of their hashes and
/// the photo's colour. A folder is complete or absent: it is filled under another name and
/// renamed into place.
final class PhotoFolder: PhotoStore {
    let root: String
    private let fillings = Atomic<Int>(0)

    init(root: String) {
        self.root = root
    }

    func made(_ key: PhotoKey) -> StoredPhoto? {
        let folder = root + "/" + key.text
        guard let manifest = FileReader.read(folder + "/manifest") else { return nil }
        var files: [String: StoredPhoto.File] = [:]
        var colour: String?
        for line in String(decoding: manifest, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2 else { return nil }
            if parts[0] == "colour" {
                colour = String(parts[1])
            } else {
                guard let hash = UInt64(parts[1], radix: 16) else { return nil }
                files[String(parts[0])] = .kept(URL(fileURLWithPath: folder + "/" + parts[0]), hash: hash)
            }
        }
        return StoredPhoto(files: files, colour: colour)
    }

    func keep(_ made: MadePhoto, as key: PhotoKey) -> StoredPhoto? {
        let folder = root + "/" + key.text
        // Named for this process and call: two builds, or two photos of one build, may keep
        // the same photo at once.
        let filling = root + "/.filling-\(getpid())-\(fillings.add(1, ordering: .relaxed).newValue)-" + key.text
        let manager = FileManager.default
        do {
            try? manager.removeItem(atPath: filling)
            try manager.createDirectory(atPath: filling, withIntermediateDirectories: true)
            var manifest = made.meanColour.map { "colour \($0)\n" } ?? ""
            var files: [String: StoredPhoto.File] = [:]
            for image in made.images {
                let name = StoredPhoto.name(width: image.requestedWidth, encoding: image.encoding)
                let hash = ContentHash.value(image.bytes)
                try Data(image.bytes).write(to: URL(fileURLWithPath: filling + "/" + name))
                manifest += "\(name) \(String(hash, radix: 16))\n"
                files[name] = .kept(URL(fileURLWithPath: folder + "/" + name), hash: hash)
            }
            try Data(manifest.utf8).write(to: URL(fileURLWithPath: filling + "/manifest"))
            // Another build may have kept the same photo meanwhile: its folder stands.
            if rename(filling, folder) != 0 {
                try? manager.removeItem(atPath: filling)
                return self.made(key)
            }
            return StoredPhoto(files: files, colour: made.meanColour)
        } catch {
            try? manager.removeItem(atPath: filling)
            return nil
        }
    }

    /// Removes every photo's folder but those of `keys`: what a whole build did not use.
    /// A folder being filled is left to its process while that runs (a server and a build
    /// of the same site share the folder).
    func prune(keeping keys: Set<PhotoKey>) {
        let names = Set(keys.map(\.text))
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: root) else { return }
        for entry in entries where !names.contains(entry) {
            if entry.hasPrefix(".filling-"), let pid = entry.split(separator: "-").dropFirst().first.flatMap({ Int32($0) }),
               kill(pid, 0) == 0 || errno == EPERM {
                continue
            }
            try? FileManager.default.removeItem(atPath: root + "/" + entry)
        }
    }
}
