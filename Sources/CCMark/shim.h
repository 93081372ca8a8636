#include <stdlib.h>
#include <cmark.h>
