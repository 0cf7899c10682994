/* Heap accounting for the memory measure of wfl-bench. See cbaseline.h. */

#include <malloc.h>
#include "cbaseline.h"

size_t wflc_heap_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
#else
    return 0;
#endif
}
