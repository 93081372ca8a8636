// statfs, which Swift's Glibc module leaves out: the type of the file system a site is on
// tells how fine its time stamps are.
#include <sys/vfs.h>
