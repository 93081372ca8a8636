import SitegenCLI
import SitegenPlatform

exit(CommandLineTool.run(arguments: Array(CommandLine.arguments.dropFirst()), endsProcess: true))
