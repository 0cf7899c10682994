#include "cbaseline.h"
size_t wflc_count_tokens(const unsigned char *buf, size_t len) { (void)buf; return len; }
