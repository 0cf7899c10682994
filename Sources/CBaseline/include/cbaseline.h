#ifndef CBASELINE_H
#define CBASELINE_H
#include <stddef.h>
/* Counts the tokens of a .wfl buffer with a plain byte loop: the yardstick for wfl's lexer. */
size_t wflc_count_tokens(const unsigned char *buf, size_t len);
#endif
