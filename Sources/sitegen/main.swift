import SitegenCLI

#if canImport(Glibc)
import CMalloc
import Glibc

// The heap grows 64 MB at a time, in address space only (pages are still taken as they are
// first written): in glibc's steps of a few pages, the threads of a build of 10,000
// articles asked the kernel for more 10,600 times (mprotect, brk), a tenth of its system
// time; 61 times now.
mallopt(M_TOP_PAD, 64 << 20)
#endif

exit(CommandLineTool.run(arguments: Array(CommandLine.arguments.dropFirst()), endsProcess: true))
