import SitegenCLI

#if canImport(Glibc)
import Glibc
#endif

exit(CommandLineTool.run(arguments: Array(CommandLine.arguments.dropFirst()), endsProcess: true))
