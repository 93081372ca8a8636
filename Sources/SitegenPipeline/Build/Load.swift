import Foundation
import SitegenFiles

/// The **load** stage: the site's files, walked (only the folders that changed since the
/// listings a reuse kept), or the tree a reuse already knows.
public enum Load {
    public static func tree(_ request: BuildRequest, known: KnownSources?) -> SourceTree {
        switch known {
        case .tree(let tree): tree
        case .listings(let listings): SourceTree.load(siteRoot: request.sourceURL, known: listings)
        case nil: SourceTree.load(siteRoot: request.sourceURL)
        }
    }
}
