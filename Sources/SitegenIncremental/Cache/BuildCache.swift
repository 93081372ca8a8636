import Foundation
import SitegenContent
import SitegenFiles
import SitegenPipeline
import SitegenPlatform
import SitegenSupport

/// What a build leaves for the next one, outside the published folder and outside the
/// site: every input's stamp, every content file's model, every page's fingerprint and
/// the manifest of the output. A cache that does not read back whole, or was written by
/// another version of sitegen or for other options, is ignored.
struct BuildCache: Sendable {
    static let format = "sitegen-build-cache-32"

    /// The tool version and options the cache was made for.
    var signature: String
    /// The settled moment the pages were made at (`BuildMoment.settled`, its `key`): a
    /// build at another one takes the models from the cache but renders again the pages
    /// that show the moment, which their fingerprints tell.
    var moment = ""
    /// The earliest date of an article the build left out or marked as scheduled
    /// (`SiteIndex.nextScheduled`): a build from then on is at another moment.
    var nextScheduled = Int.max
    /// site.yaml, teachers.yaml and the list of static files: what every model depends on.
    var contextHash: UInt64
    /// The stamps of the site's files but its Markdown files (whose are in `content`).
    var inputs: [String: FileStamp] = [:]
    /// The hash of each static file's bytes as of its stamp in `inputs`, by path relative
    /// to the site: what the models depend on (`staticHashes(of:known:racy:)`).
    var staticHashes: [String: UInt64] = [:]
    var diagnostics: [Diagnostic] = []
    var content = ContentTable()
    var pages = PageTable()
    var outputs = PathTable<OutputManifest.Entry>()
    /// The modification time of every folder of the output (relative, "" for the output
    /// itself) as the last build left it: a folder whose time changed may hold files the
    /// site never wrote, which a build removes as it would without the cache.
    var folders = PathTable<Int64>()
    var pageCount = 0
    var fileCount = 0
    /// The model store this cache was read with: which one, how much of it, and the
    /// checksum of that much.
    var store = ModelStore.Mark()
    /// Which members of articles the list pages read (`ArticleView.Reads`), over every
    /// build since the pages were last all rendered: an edit that changes none of them
    /// leaves every list page as it is.
    var cardReads: UInt64 = 0
    /// The articles of the site's feed, newest first (paths relative to the site).
    var feedSources: [String] = []
    /// What the build learned from ICU of the site's language (`Formats.learn`).
    var formatFacts: FormatFacts?
    /// The hash of the bytes of every input (path relative to the site) whose stamp was
    /// too recent to tell it when the cache was made: a file system stamps times from a
    /// clock that moves in ticks, and a file written again in the tick it was looked at in
    /// keeps its stamp (and its size, if its bytes are as many). Such a file is read again
    /// by the next build and told changed by its bytes.
    var racyInputs: [String: UInt64] = [:]
    /// The checksum of the lists beside the cache file (`SiteLists`) made for this cache;
    /// 0 when there are none.
    var listsChecksum: UInt64 = 0
    /// The checksum of the homework's keys beside the cache file (`HomeworkKeys`) made for
    /// this cache; 0 when there are none.
    var homeworkChecksum: UInt64 = 0
    /// The checksum of the cache file as it was read, when it was: the changes a save
    /// writes beside it are the changes to that file.
    var base: UInt64?
    var changes = Changes()
}
