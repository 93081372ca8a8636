import Foundation

/// The Leaflet library for `/map/`, taken from the machine that builds the site
/// (Debian's libjs-leaflet) and published under `assets/leaflet/`.
enum Leaflet {
    static let outputFolder = "assets/leaflet/"

    /// Files by their path under `assets/leaflet/`, or nil when the folder has no Leaflet.
    static func load(from folder: String) -> [String: [UInt8]]? {
        let fileManager = FileManager.default
        func read(_ name: String) -> [UInt8]? {
            fileManager.contents(atPath: folder + "/" + name).map(Array.init)
        }
        guard let script = read("leaflet.js"), let style = read("leaflet.css") else { return nil }
        var files = ["leaflet.js": script, "leaflet.css": style]
        // Debian ships the marker clusters beside Leaflet; they are optional.
        for name in ["leaflet.markercluster.js", "MarkerCluster.css", "MarkerCluster.Default.css"] {
            if let bytes = read(name) { files[name] = bytes }
        }
        let images = (try? fileManager.contentsOfDirectory(atPath: folder + "/images")) ?? []
        for name in images.sorted() where name.hasSuffix(".png") || name.hasSuffix(".svg") {
            if let bytes = read("images/" + name) { files["images/" + name] = bytes }
        }
        return files
    }
}
