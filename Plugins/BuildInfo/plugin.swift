import Foundation
import PackagePlugin

/// Stamps the version, the commit and the GitHub repository sitegen is built from into the
/// target it is applied to (`Scripts/build-info.sh` writes the Swift file). It runs before
/// every build, and the file is rewritten only when the stamp changes, so an unchanged
/// checkout compiles nothing again.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "Stamp")
        let script = context.package.directoryURL.appending(path: "Scripts/build-info.sh")
        // What the release workflow says of the build (it may build where git cannot look).
        let passed = ["PATH", "SITEGEN_COMMIT", "SITEGEN_REPOSITORY"]
        let environment = ProcessInfo.processInfo.environment.filter { passed.contains($0.key) }
        return [.prebuildCommand(displayName: "Stamping the version and commit", executable: URL(fileURLWithPath: "/bin/sh"),
                                 arguments: [script.path, context.package.directoryURL.path, output.path],
                                 environment: environment, outputFilesDirectory: output)]
    }
}
