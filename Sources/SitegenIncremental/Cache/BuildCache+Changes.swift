import Foundation
import SitegenContent
import SitegenFiles
import SitegenPipeline
import SitegenPlatform
import SitegenSupport

extension BuildCache {
    /// Takes the changes of a rebuild of edited articles.
    mutating func take(_ edits: EditScope.Edits) {
        for (path, entry) in edits.content {
            content[path] = entry
            racyInputs["Content/" + path] = entry.stamp.modified >= edits.settledBefore ? entry.hash : nil
        }
        pages.merge(edits.pages)
        formatFacts = edits.formatFacts ?? formatFacts
        cardReads |= edits.cardReads
        changes.content.formUnion(edits.content.keys)
        changes.pages.formUnion(edits.pages.keys)
    }

    /// The paths (relative to the site) of the files of `tree` whose stamps are not as
    /// in this cache, or whose bytes are not (`racyChanges`), when there are at most
    /// `limit` and no file came or went; nil otherwise. Empty: nothing changed.
    func inputsChanged(in tree: SourceTree, upTo limit: Int, racy: Set<String> = []) -> [String]? {
        guard tree.stamps.count == inputs.count, tree.markdown.count == content.count else { return nil }
        var changed: [String] = []
        for (path, stamp) in tree.stamps where inputs[path] != stamp || racy.contains(path) {
            guard inputs[path] != nil, changed.count < limit else { return nil }
            changed.append(path)
        }
        // Both list the Markdown files in the order of their paths, compared as bytes in
        // place (`PackedPaths`).
        let same = tree.markdown.withUnsafeBufferPointer { files in
            content.entries.withUnsafeBufferPointer { entries in
                content.paths.withView { paths in
                    for index in files.indices {
                        guard paths.isSame(at: index, as: files[index].contentPath) else { return false }
                        if entries[index].stamp != files[index].stamp {
                            guard changed.count < limit else { return false }
                            changed.append("Content/" + files[index].contentPath)
                        }
                    }
                    return true
                }
            }
        }
        guard same else { return nil }
        for path in racy where path.hasPrefix("Content/") && tree.stamps[path] == nil && !changed.contains(path) {
            guard changed.count < limit else { return nil }
            changed.append(path)
        }
        return changed
    }

    /// The inputs of `racyInputs` whose stamps are the same in `tree` but whose bytes are
    /// not (paths relative to the site): each is hashed again.
    func racyChanges(in tree: SourceTree) -> Set<String> {
        var changed: Set<String> = []
        for (path, hash) in racyInputs {
            // A stamp that changed tells the change itself.
            guard let stamp = tree.stamp(of: path), stamp == self.stamp(of: path) else { continue }
            if tree.bytes(of: path).map(ContentHash.value) != hash { changed.insert(path) }
        }
        return changed
    }

    /// The hash of the bytes of each static file of `tree`, by path relative to the site:
    /// `known`'s when the file's stamp is the one it has and the bytes did not change
    /// within the stamp's tick (`racy`), else read now, on both cores.
    static func staticHashes(of tree: SourceTree, known: BuildCache?, racy: Set<String>) -> [String: UInt64] {
        var hashes: [String: UInt64] = [:]
        hashes.reserveCapacity(tree.staticFiles.count)
        var unknown: [String] = []
        for file in tree.staticFiles {
            let path = "Content/" + file
            if let known, let stamp = tree.stamps[path], known.inputs[path] == stamp, let hash = known.staticHashes[path], !racy.contains(path) {
                hashes[path] = hash
            } else {
                unknown.append(path)
            }
        }
        for (path, hash) in zip(unknown, parallelMap(unknown) { tree.bytes(of: $0).map(ContentHash.value) ?? 0 }) {
            hashes[path] = hash
        }
        return hashes
    }

    /// The stamp this cache has of the input at `path` (relative to the site).
    private func stamp(of path: String) -> FileStamp? {
        inputs[path] ?? (path.hasPrefix("Content/") ? content[String(path.dropFirst("Content/".count))]?.stamp : nil)
    }

    /// Forgets the racy inputs whose stamps in `tree` are settled now: after a build that
    /// found them unchanged, their stamps tell a later change. Whether any was forgotten.
    mutating func settleRacyInputs(in tree: SourceTree) -> Bool {
        let before = racyInputs.count
        racyInputs = racyInputs.filter { path, _ in tree.stamp(of: path).map { $0.modified >= tree.settledBefore } ?? false }
        return racyInputs.count != before
    }

    /// `racyInputs` for a cache of `tree`: the inputs whose stamps are not before the
    /// walk's `settledBefore`, each with the hash of its bytes (`hashes` for Markdown files
    /// and `staticHashes` for static files, by path relative to the site; the others read).
    static func racyInputs(of tree: SourceTree, hashes: [String: UInt64], staticHashes: [String: UInt64]) -> [String: UInt64] {
        var racy: [String: UInt64] = [:]
        for file in tree.markdown where file.stamp.modified >= tree.settledBefore {
            let path = "Content/" + file.contentPath
            if let hash = hashes[path] { racy[path] = hash }
        }
        for (path, stamp) in tree.stamps where stamp.modified >= tree.settledBefore {
            racy[path] = staticHashes[path] ?? tree.bytes(of: path).map(ContentHash.value) ?? 0
        }
        return racy
    }
}
