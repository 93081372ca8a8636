// What Swift's C library module leaves out, for SitegenPlatform alone: Linux's own calls,
// which glibc declares only for _GNU_SOURCE (Swift's Glibc module is built without it),
// and the headers that module does not include. Elsewhere this header is empty, and
// SitegenPlatform takes its portable paths.
#ifdef __linux__
#include <malloc.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/vfs.h>

// preadv2 with RWF_NOWAIT (Linux 4.14): a read that fails at once with EAGAIN instead of
// waiting for the disk when the file's pages are not in memory. The flag's value is the
// kernel's (include/uapi/linux/fs.h).
ssize_t preadv2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags);
#define SITEGEN_RWF_NOWAIT 0x00000008

void *memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen);

// copy_file_range (Linux 4.5, glibc 2.27): bytes copied by the kernel, never read into the
// program (a clone where the file system shares blocks).
ssize_t copy_file_range(int fd_in, off_t *off_in, int fd_out, off_t *off_out, size_t len, unsigned int flags);

// renameat2 (Linux 3.15, glibc 2.28) with RENAME_EXCHANGE: two paths swap their files in
// one step. The flag's value is the kernel's.
int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);
#define SITEGEN_RENAME_EXCHANGE (1 << 1)

// F_SETLEASE (fcntl.h): a write lease is granted only while no one else has the file open.
#define SITEGEN_F_SETLEASE 1024
#endif
