import Foundation
import SitegenContent
import SitegenFiles
import SitegenSupport

/// What a build may take from the builds before it. The build asks at the boundaries of
/// its stages and does a stage's work for whatever gets no answer: without a reuse it
/// walks every folder, reads every content file and renders every page. An answer may
/// make a build faster, never different (the cache-differential tests build sites with
/// and without one and compare every byte).
///
/// The questions, in the order `SiteBuilder` asks them:
///
/// | stage | question |
/// |---|---|
/// | load | `sources(for:)`: what the folders held, or the whole tree |
/// | parse | `changes(in:settings:)`: nothing, a few files edited in place, or unknown |
/// | validate | `models(of:)`: the model of each file that did not change |
/// | index | `scope(_:in:)`: an index of only what the edits show, and its pages |
/// | photos | `photoStore`, `staticHash(of:)`: the files made of photos before |
/// | render | `pages(_:paths:of:)`: which pages are as the last build left them |
/// | render | `rendered(_:)`: whether what the build read held still |
/// | write | `lastOutput`: the output as the last build left it |
/// | write | `written(_:)`: what the build made, for the next one |
public protocol BuildReuse: AnyObject {
    /// **load**: the tree of the site's files when the reuse knows it without a walk (a
    /// server told which files changed), or what each folder held when last walked.
    func sources(for request: BuildRequest) -> KnownSources

    /// **parse**: what changed since the build the reuse knows, once the tree is walked and
    /// the settings read. `walked` tells whether the tree came from a walk.
    func changes(in tree: SourceTree, settings: BuildSettings, walked: Bool) -> SourceChanges

    /// **validate**: the model of each of the tree's Markdown files the reuse holds, by
    /// position, made in `context`.
    func models(of tree: SourceTree, context: ModelContext) -> [KnownModel?]

    /// **index**: when the only changes are `edited` files edited in place, an index of
    /// what they show and the pages to render; nil when the build must index every model.
    func scope(_ edited: [EditedSource], in build: ScopeRequest) -> ScopedBuild?

    /// **photos**: where the files made of photos are kept between builds.
    var photoStore: (any PhotoStore)? { get }

    /// **photos**: the hash of the bytes of the static file at `path` (relative to
    /// Content/), when the reuse knows it without reading the file.
    func staticHash(of path: String) -> UInt64?

    /// **render**: what the pages about to be rendered (`pages`, at `paths`) showed when the
    /// last build made them. `models`: every source's model, by position in the tree, when
    /// the build made the whole index.
    func pages(_ pages: [PlannedPage], paths: [String], of index: SiteIndex, assets: PublishedAssets, models: [Validated]?) -> (any PageReuse)?

    /// **render**: the pages are rendered; false when what the build read of the last
    /// build's pages did not hold still (the report says which sources changed).
    func rendered(_ render: Render.Output, report: inout BuildReport) -> Bool

    /// **write**: the output folder as the last build left it.
    var lastOutput: LastOutput? { get }

    /// **write**: the files are written (nil: they could not be); the reuse keeps what the
    /// next build needs.
    func written(_ build: WrittenBuild?)

    /// The formats of the site's language as the last build knew them (what ICU said of
    /// its dates and currencies), so that this one need not ask ICU again.
    func formats(for language: LanguageTag) -> Formats?
}

/// What a reuse knows of the site's files before they are walked.
public enum KnownSources: Sendable {
    /// The tree as it stands: no folder need be read.
    case tree(SourceTree)
    /// What each folder held when last walked: only the folders that changed are read.
    case listings(FolderListings)

    public var isTree: Bool {
        if case .tree = self { return true }
        return false
    }
}

/// What changed since the build a reuse knows.
public enum SourceChanges: Sendable {
    /// Nothing, and the output is as that build left it: its report stands.
    case none(BuildReport)
    /// Only these Markdown files, each edited in place.
    case edited([SourceTree.MarkdownFile])
    /// Anything else: the build goes through every stage, taking what the reuse has.
    case unknown
}

/// A file edited in place, and the model the validate stage made of it.
public struct EditedSource: Sendable {
    public var file: SourceTree.MarkdownFile
    public var model: SourceModel
}

/// What a scoped build is made in.
public struct ScopeRequest: Sendable {
    public var tree: SourceTree
    public var settings: BuildSettings
    public var context: ModelContext
    public var formats: Formats
}

/// An index of just what some edits show, and the pages that show them: the rest of the
/// output stays as the last build wrote it.
public struct ScopedBuild: Sendable {
    public var index: SiteIndex
    public var theme: Theme
    public var assets: PublishedAssets
    public var pages: [PlannedPage]
    public var paths: [String]
    /// The homework summary the last build made, when the index has none of the assignments.
    public var homeworkSummary: HomeworkSummary?
    /// The whole site's problems, the edited files' as they are now.
    public var diagnostics: [Diagnostic]
    /// How many pages and files the site has.
    public var pageCount: Int
    public var fileCount: Int

    public init(index: SiteIndex, theme: Theme, assets: PublishedAssets, pages: [PlannedPage], paths: [String], homeworkSummary: HomeworkSummary?,
                diagnostics: [Diagnostic], pageCount: Int, fileCount: Int) {
        self.index = index
        self.theme = theme
        self.assets = assets
        self.pages = pages
        self.paths = paths
        self.homeworkSummary = homeworkSummary
        self.diagnostics = diagnostics
        self.pageCount = pageCount
        self.fileCount = fileCount
    }
}

/// What the render stage asks of the pages the last build made.
public protocol PageReuse: Sendable {
    /// The file at `path` as the last build wrote it.
    func written(_ path: String) -> OutputManifest.Entry?

    /// The page at `position` of those rendered (at `path`), when what it shows, the
    /// templates it was made with and its file are as the last build left them.
    /// `templatesHash` gives the hash of templates by their names as they are now.
    func unchanged(at position: Int, path: String, templatesHash: ([String]) -> UInt64) -> (OutputManifest.Entry, RenderedPage)?

    /// Whether a rendered article page notes where it holds the article's HTML (`PageHTML`).
    var notesArticleHTML: Bool { get }

    /// The hash of the bytes of the static file at `path` (relative to Content/), when the
    /// reuse knows it: the writer then need not read a file the output has as it was.
    func staticHash(of path: String) -> UInt64?
}

/// What the render stage made of a page: the templates it used, and where an article's
/// page holds the article's HTML.
public struct RenderedPage: Sendable, Equatable {
    public var templates: [String]
    public var templatesHash: UInt64
    public var html: PageHTML?

    public init(templates: [String], templatesHash: UInt64, html: PageHTML?) {
        self.templates = templates
        self.templatesHash = templatesHash
        self.html = html
    }
}

/// The output folder as the last build left it.
public struct LastOutput: Sendable {
    public var files: PathTable<OutputManifest.Entry>
    public var folders: PathTable<Int64>
    /// Whether every file and folder was found as `files` and `folders` have them when this
    /// build began: the writer need not look at them again.
    public var isAsLeft: Bool

    public init(files: PathTable<OutputManifest.Entry>, folders: PathTable<Int64>, isAsLeft: Bool) {
        self.files = files
        self.folders = folders
        self.isAsLeft = isAsLeft
    }
}

/// A build once its files are written.
public struct WrittenBuild: Sendable {
    public var report: BuildReport
    public var tree: SourceTree
    public var settings: BuildSettings
    public var index: SiteIndex
    public var theme: Theme
    public var assets: PublishedAssets
    public var formats: FormatFacts
    /// What the writer did.
    public var result: OutputWriter.Result
    /// Whether only the pages of a scope were written.
    public var isScoped: Bool
    public var progress: @Sendable (String) -> Void
}
