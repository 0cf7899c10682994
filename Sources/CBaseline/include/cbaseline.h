#ifndef CBASELINE_H
#define CBASELINE_H

/*
 * Plain C yardsticks for `wfl-bench`: each one does the same job as a part of wfl, written the
 * obvious way (no SIMD, no tricks), so that the benchmark can print wfl's figure beside a
 * baseline measured in the same run. One .c file per yardstick:
 *
 *   tokens.c   wflc_count_tokens   the lexer (LANGUAGE.md, "Lexical structure")
 *
 * Later yardsticks (waterfall placement, flow line breaking, a JSON writer) get their own file and
 * their own section below.
 */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- tokens.c -------------------------------------------------------------------------------- */

/*
 * Counts the tokens of a .wfl buffer with a plain byte loop: the yardstick for wfl's lexer.
 *
 * It reads the lexical grammar of LANGUAGE.md: a leading BOM, spaces and tabs, LF and CRLF (a
 * newline is a token), `//` comments, nested block comments (one newline token when the comment
 * holds a line break), identifiers, numbers (digits, `_` between digits, a fraction, an exponent,
 * and `375x812` as number, `x`, number), one-line strings with escapes (`\u{...}` included),
 * one- and two-character operators, and UTF-8 checking of the bytes above 0x7F. Malformed input
 * counts as one token per mistake, as wfl's `.error` tokens do. The count includes the final
 * end-of-input token, so for valid input it equals `Lexer.tokenize(...).tokens.count`.
 *
 * It does not store the tokens: it is an upper bound on what a byte-level lexer can do here.
 */
size_t wflc_count_tokens(const unsigned char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* CBASELINE_H */
