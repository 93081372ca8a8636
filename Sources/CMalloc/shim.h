// mallopt, which Swift's Glibc module leaves out: how the heap of the sitegen process grows.
#include <malloc.h>
