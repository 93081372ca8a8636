// statfs, which Swift's Glibc module leaves out: the type of the file system a site is on
// tells how fine its time stamps are.
#include <sys/vfs.h>
#include <sys/types.h>
#include <sys/uio.h>

// preadv2 with RWF_NOWAIT (Linux 4.14; glibc declares both only for _GNU_SOURCE, which
// Swift's Glibc module is not built with): a read that fails at once with EAGAIN instead of
// waiting for the disk when the file's pages are not in memory. The flag's value is the
// kernel's (include/uapi/linux/fs.h).
ssize_t preadv2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags);
#define SITEGEN_RWF_NOWAIT 0x00000008

// memmem, declared by glibc only for _GNU_SOURCE too: where an article's HTML is in the
// page rendered from it (`PageHTML`).
void *memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen);

// copy_file_range (Linux 4.5, glibc 2.27), declared by glibc only for _GNU_SOURCE as well: a
// static file copied by the kernel, never read into the program (a clone where the file
// system shares blocks).
ssize_t copy_file_range(int fd_in, off_t *off_in, int fd_out, off_t *off_out, size_t len, unsigned int flags);

// renameat2 (Linux 3.15, glibc 2.28), declared only for _GNU_SOURCE too, with
// RENAME_EXCHANGE: two paths swap their files in one step. A page is replaced by swapping
// in a file that already holds its new bytes; the old page's file, swapped out, is written
// over for the next page (`FileReplacer`). The flag's value is the kernel's.
int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);
#define SITEGEN_RENAME_EXCHANGE (1 << 1)

// F_SETLEASE (fcntl.h, for _GNU_SOURCE): a write lease is granted only while no one else
// has the file open, which tells whether a page swapped out may be written over.
#define SITEGEN_F_SETLEASE 1024
