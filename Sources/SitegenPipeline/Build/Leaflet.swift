import CLeaflet
import Foundation
import SitegenContent
import SitegenFiles

/// The Leaflet library for `/map/`, published under `assets/leaflet/`: the copy this sitegen
/// carries, or a folder that site.yaml names (`map.leaflet`).
public struct LeafletFiles: Sendable {
    public static let outputFolder = "assets/leaflet/"

    /// Files by their path under `assets/leaflet/`.
    public var files: [String: [UInt8]]
    /// What tells these files from others, for the build cache: another Leaflet means
    /// another map page and other assets.
    public var signature: String

    /// Debian's Leaflet and marker clusters, taken into the binary when it was compiled
    /// (Sources/CLeaflet). The binary's identity already tells one copy from another.
    public static let embedded: LeafletFiles = {
        var files: [String: [UInt8]] = [:]
        for index in 0..<sitegen_leaflet_file_count() {
            let file = sitegen_leaflet_file(index)
            files[String(cString: file.name)] = Array(UnsafeBufferPointer(start: file.bytes, count: file.count))
        }
        return LeafletFiles(files: files, signature: "embedded")
    }()

    /// The Leaflet in `folder` (leaflet.js, leaflet.css, and the marker clusters and images
    /// beside them when they are there); nil when it has no leaflet.js and leaflet.css.
    public static func folder(_ folder: String) -> LeafletFiles? {
        let fileManager = FileManager.default
        func read(_ name: String) -> [UInt8]? {
            fileManager.contents(atPath: folder + "/" + name).map(Array.init)
        }
        guard let script = read("leaflet.js"), let style = read("leaflet.css") else { return nil }
        var files = ["leaflet.js": script, "leaflet.css": style]
        for name in ["leaflet.markercluster.js", "MarkerCluster.css", "MarkerCluster.Default.css"] {
            if let bytes = read(name) { files[name] = bytes }
        }
        let images = (try? fileManager.contentsOfDirectory(atPath: folder + "/images")) ?? []
        for name in images.sorted() where name.hasSuffix(".png") || name.hasSuffix(".svg") {
            if let bytes = read("images/" + name) { files["images/" + name] = bytes }
        }
        // A system upgrade changes these files, if ever: their sizes and times tell.
        let stamps = files.keys.sorted().map { name in
            let stamp = FileStamp.of(folder + "/" + name)
            return "\(name):\(stamp?.size ?? -1):\(stamp?.modified ?? -1)"
        }
        return LeafletFiles(files: files, signature: ([folder] + stamps).joined(separator: ","))
    }
}
