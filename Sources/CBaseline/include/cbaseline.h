#ifndef CBASELINE_H
#define CBASELINE_H

/*
 * Plain C yardsticks for `wfl-bench`: each one does the same job as a part of wfl, written the
 * obvious way (no SIMD, no tricks), so that the benchmark can print wfl's figure beside a
 * baseline measured in the same run. One .c file per yardstick:
 *
 *   tokens.c   wflc_count_tokens   the lexer (docs/language.md, "Lexical structure")
 *   layout.c   wflc_waterfall_*, wflc_flow_random, wflc_random, wflc_rect_scan
 *                                  the engines (docs/layout.md) and a brute-force rect query
 *   groups.c   wflc_groups_featured the groups engine on the tree of samples/featured.wfl
 *   grid.c     wflc_grid_dense      the grid engine, dense packing of a repeating quilted pattern
 *   json.c     wflc_write_json     the json table of docs/usage.md, written with fprintf
 *   memory.c   wflc_heap_in_use    malloc's bytes in use (mallinfo2), for the memory measure
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- tokens.c -------------------------------------------------------------------------------- */

/*
 * Counts the tokens of a .wfl buffer with a plain byte loop: the yardstick for wfl's lexer.
 *
 * It reads the lexical grammar of docs/language.md: a leading BOM, spaces and tabs, LF and CRLF (a
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

/* ---- layout.c -------------------------------------------------------------------------------- */

/* A frame as four doubles, origin top-left. */
typedef struct { double x, y, width, height; } wflc_frame;

/* `random(lo, hi)` of docs/language.md for (seed, s, i, k): the SplitMix-like mixer, then lo + z mod (hi - lo). */
uint64_t wflc_random(uint64_t seed, uint64_t s, uint64_t i, uint64_t k, int64_t lo, int64_t hi);

/*
 * One vertical waterfall section (docs/layout.md, "Waterfall"): order shortest, span 1, `insets inset`,
 * `spacing spacing`, container width cw, no header or footer. Item i is `heights[i % nheights]`
 * tall (list), or `50 + random(0, 150)` with `seed` (random). Writes `items` frames to `out` and
 * returns the content height.
 */
double wflc_waterfall_list(int columns, const double *heights, size_t nheights, size_t items, double cw,
                           double spacing, double inset, wflc_frame *out);
double wflc_waterfall_random(int columns, uint64_t seed, size_t items, double cw, double spacing, double inset,
                             wflc_frame *out);

/*
 * One vertical flow section with no insets (docs/layout.md, "Flow"), justify uikit and align center,
 * sized `40 + random(0, 120) x 30 + random(0, 40)`: line breaking and placement. Writes `items`
 * frames to `out`, returns the content height.
 */
double wflc_flow_random(uint64_t seed, size_t items, double cw, double spacing, wflc_frame *out);

/* Brute force: the indices of the frames overlapping (x, y, w, h) as open intervals, in order. */
size_t wflc_rect_scan(const wflc_frame *frames, size_t n, double x, double y, double w, double h, int32_t *out);

/* ---- json.c ---------------------------------------------------------------------------------- */

/*
 * Writes one layout's json table (the shape of docs/usage.md; every element a cell of section 0) to `path`
 * with fprintf, numbers as "%.17g". Returns 0, or -1 when the file cannot be written.
 */
int wflc_write_json(const char *path, const char *name, double cw, double ch, double contentW, double contentH,
                    const wflc_frame *frames, size_t n);

/* ---- memory.c -------------------------------------------------------------------------------- */

/* Bytes malloc has handed out and not taken back (mallinfo2: arenas plus mmapped blocks). */
size_t wflc_heap_in_use(void);

/* ---- groups.c -------------------------------------------------------------------------------- */

/*
 * One vertical groups section (docs/layout.md, "Groups") with the top group of
 * samples/featured.wfl (`spacing` as every itemSpacing), `insets top side`, `groupSpacing
 * group_gap`, container width cw: writes `items` frames to `out` and returns where they end.
 */
double wflc_groups_featured(size_t items, double cw, double top, double side, double spacing, double group_gap,
                            wflc_frame *out);

/* ---- grid.c ---------------------------------------------------------------------------------- */

/*
 * A vertical grid (docs/layout.md, "Tile grids") of `lanes` columns, container width cw, `spacing
 * gap`, square rows, no insets, `packing dense`, item i's tile cols[i % pattern] x rows[i %
 * pattern]: writes `items` frames to `out` and returns where they end.
 */
double wflc_grid_dense(size_t items, size_t lanes, const int *cols, const int *rows, size_t pattern, double cw, double gap,
                       wflc_frame *out);

#ifdef __cplusplus
}
#endif

#endif /* CBASELINE_H */
