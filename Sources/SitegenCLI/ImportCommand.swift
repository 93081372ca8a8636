import Foundation
import SitegenPlatform

/// `sitegen import`: teachers' posts into assignment files. The work is done by
/// `sitegen-import`, installed beside sitegen: it needs Foundation's HTTP and XML, which link
/// libcurl and libxml2, and sitegen itself links nothing but the C library.
enum ImportCommand {
    static let spec = CommandSpec(
        name: "import",
        summary: "write an assignment file for each new post of the teachers' feeds",
        usage: ["import [options]"],
        description: [
            "Reads the feed of each teacher of teachers.yaml that has a 'feed' (an RSS or Atom address, or a file of the site's folder) and writes each post not imported before as an assignment file of Content/homework/: its title, the teacher, the day it was posted in the site's time zone, a due date when the post gives exactly one ('due Friday', 'due 2026-03-12', 'for tomorrow'), the post as Markdown, and a 'source' that records the post. A post imported before is never written again; a post changed since is reported, and written again with --update unless its file was edited. A feed that fails is reported with its teacher and address, the others still import, and the exit status is 1.",
            "Servers are asked only for what changed since the last import (ETag and Last-Modified, kept in the cache folder), with a timeout of 20 seconds, at most 5 MB and five redirects.",
        ],
        options: [
            .option("--source", "DIR", .folder, "the site folder (default: .)"),
            .option("--teacher", "ID", "only this teacher's feed (may be given more than once)"),
            .flag("--update", "write again the files of posts changed since import, unless an author edited them"),
            .flag("--dry-run", "print what would be written, and write nothing"),
            .option("--cache-dir", "DIR", .folder, "where what each feed's server last said is kept (default: ~/.cache/sitegen, or $XDG_CACHE_HOME/sitegen)"),
        ],
        notes: ["How to set it up, and the daily workflow: docs/homework.md#importing-from-teachers-blogs."],
        operandHint: "; the site folder is given with --source",
        run: { parsed, invocation in run(parsed, console: invocation.console) }
    )

    static func run(_ parsed: Arguments, console: Console) -> Int32 {
        guard let helper = helperPath() else {
            console.printError("sitegen import: error: sitegen-import must be installed beside sitegen (\(ownFolder ?? "its folder")), found none: install sitegen from its .deb or tarball, which hold both (docs/homework.md#importing-from-teachers-blogs)")
            return 2
        }
        return Subprocess.run(helper, arguments: parsed.forwarded)
    }

    private static var ownFolder: String? {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).map { ($0 as NSString).deletingLastPathComponent }
    }

    /// `sitegen-import` beside this executable; a link to sitegen is followed first.
    static func helperPath() -> String? {
        guard let folder = ownFolder else { return nil }
        let path = folder + "/sitegen-import"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }
}
