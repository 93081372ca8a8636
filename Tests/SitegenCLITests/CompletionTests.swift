import Foundation
@testable import SitegenCLI
import Testing

/// The shell completions and the manual page, which are made from the same specs as the
/// help: loaded into the real shells, and read by groff.
@Suite("Completions and the manual page")
struct CompletionTests {
    private static func tool(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `shell` with `arguments` and the script on standard input; its output.
    private func run(_ shell: String, _ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
        let process = Process()
        let output = Pipe()
        let inputPipe = Pipe()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = output
        process.standardInput = inputPipe
        try process.run()
        inputPipe.fileHandleForWriting.write(Data(input.utf8))
        try inputPipe.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    private func script(_ shell: String) -> String {
        let console = CapturedConsole()
        #expect(console.run("completion", shell) == 0)
        #expect(console.error == "")
        return console.output
    }

    /// What bash proposes for the words typed so far (the last one being completed).
    private func bashProposals(_ words: [String]) throws -> [String] {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program = script("bash") + "\nCOMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _sitegen; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
        let result = try run(Self.tool("bash")!, ["-s"], input: program)
        #expect(result.status == 0, "\(result.output)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test func bashLoadsTheCompletionAndProposesCommandsOptionsAndValues() throws {
        let shown = try run(Self.tool("bash")!, ["-s"], input: script("bash") + "\ncomplete -p sitegen\n")
        #expect(shown.output == "complete -F _sitegen sitegen\n")
        #expect(try bashProposals(["sitegen", "bu"]) == ["build"])
        #expect(try bashProposals(["sitegen", "-"]) == ["--help", "-h", "--version", "-V"])
        #expect(try bashProposals(["sitegen", "build", "--so"]) == ["--source"])
        #expect(try bashProposals(["sitegen", "build", "--no"]) == ["--no-cache"])
        #expect(try bashProposals(["sitegen", "init", "site", "--ci", "g"]) == ["github", "gitlab"])
        #expect(try bashProposals(["sitegen", "new", "a"]) == ["article", "assignment"])
        #expect(try bashProposals(["sitegen", "new", "--source", "x", "p"]) == ["page"])
        #expect(try bashProposals(["sitegen", "new", "article", "Title", ""]) == [])
        #expect(try bashProposals(["sitegen", "help", "ser"]) == ["serve"])
        #expect(try bashProposals(["sitegen", "completion", ""]) == ["bash", "zsh", "fish"])
    }

    @Test(.enabled(if: tool("zsh") != nil, "needs zsh (make test installs it)"))
    func zshReadsTheCompletion() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-zsh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(script("zsh").utf8).write(to: folder.appendingPathComponent("_sitegen"))
        #expect(try run(Self.tool("zsh")!, ["-n", folder.appendingPathComponent("_sitegen").path]).status == 0)
        // Loaded as zsh loads completions: from fpath, by compinit.
        let loaded = try run(Self.tool("zsh")!, ["-f", "-c", "fpath=(\(folder.path) $fpath); autoload -Uz compinit; compinit -u -D; print -r -- ${_comps[sitegen]}"])
        #expect(loaded.output == "_sitegen\n")
    }

    @Test(.enabled(if: tool("fish") != nil, "needs fish (make test installs it)"))
    func fishProposesCommandsOptionsAndValues() throws {
        func proposals(_ line: String) throws -> [String] {
            let result = try run(Self.tool("fish")!, ["--no-config", "-c", "source; complete -C '\(line)'"], input: script("fish"))
            #expect(result.status == 0, "\(result.output)")
            return result.output.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try proposals("sitegen bu") == ["build"])
        #expect(try proposals("sitegen build --so") == ["--source"])
        #expect(try proposals("sitegen init x --ci ") == ["github", "gitlab", "none"])
        #expect(try proposals("sitegen new ") == ["article", "assignment", "page"])
        #expect(try proposals("sitegen help ser") == ["serve"])
    }

    @Test func anUnknownShellIsRefusedWithASuggestion() {
        let console = CapturedConsole()
        #expect(console.run("completion", "bsh") == 2)
        #expect(console.error == "sitegen completion: error: name one shell: bash, zsh, fish; did you mean 'bash'?\n")
    }

    @Test(.enabled(if: tool("groff") != nil, "needs groff"))
    func theManualPageIsCleanRoffAndHasEveryCommandAndOption() throws {
        let console = CapturedConsole()
        #expect(console.run("man") == 0)
        let page = console.output
        let groff = try run(Self.tool("groff")!, ["-man", "-ww", "-z"], input: page)
        #expect(groff.status == 0 && groff.output.isEmpty, "\(groff.output)")
        for spec in CommandLineTool.specs {
            #expect(page.contains(".SS \"\(ManualPage.escaped(spec.name))\"\n"), "\(spec.name)")
            for option in spec.allOptions {
                #expect(page.contains("\\fB\(ManualPage.escaped(option.name))\\fR"), "\(spec.name) \(option.name)")
            }
        }
        #expect(page.contains(".TH SITEGEN 1 \"\" \"sitegen \(CommandLineTool.version)\""))
    }

    /// Every option the parser accepts is one the help shows, and the reverse: both come
    /// from the spec, and each command parses by its own.
    @Test func everyCommandParsesTheOptionsItsHelpShows() {
        for spec in CommandLineTool.specs where spec.name != "help" {
            let help = CapturedConsole()
            #expect(help.run(spec.name, "--help") == 0)
            #expect(help.output == spec.help + "\n")
            for option in spec.options {
                // Accepted, with its value if it takes one: the help follows, not an error.
                let console = CapturedConsole()
                let arguments = [spec.name, option.name] + (option.value == nil ? [] : ["x"]) + ["--help"]
                #expect(CommandLineTool.run(arguments: arguments, console: console.console) == 0, "\(arguments)")
                #expect(console.error == "", "\(arguments)")
            }
        }
    }
}
