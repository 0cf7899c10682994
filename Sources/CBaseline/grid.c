/*
 * The yardstick of the grid engine (docs/layout.md, "Tile grids"): dense packing of a repeating
 * quilted pattern in a vertical grid of `lanes` columns, one byte a cell, each tile shape searched
 * from where the last tile of that shape went (cells are only ever taken, so no earlier place fits
 * it). The frames are the engine's: square cells `colW` wide, gaps `gap` both ways, from (0, 0).
 */
#include <stdlib.h>
#include <string.h>
#include "cbaseline.h"

double wflc_grid_dense(size_t items, size_t lanes, const int *cols, const int *rows, size_t pattern, double cw, double gap,
                       wflc_frame *out) {
    double colw = (cw - (double)(lanes - 1) * gap) / (double)lanes;
    size_t max_rows = 1;
    for (size_t k = 0; k < pattern; k++) if ((size_t)rows[k] > max_rows) max_rows = (size_t)rows[k];
    /* Every tile covers at least one cell: at most items * max_rows lines. */
    size_t lines = items * max_rows + max_rows + 1;
    unsigned char *taken = calloc(lines * lanes, 1);
    size_t shapes[64], places[64], nshapes = 0;
    double bottom = 0;
    for (size_t i = 0; i < items; i++) {
        size_t across = (size_t)cols[i % pattern], along = (size_t)rows[i % pattern];
        size_t shape = across * 1001 + along, slot = 0;
        while (slot < nshapes && shapes[slot] != shape) slot++;
        if (slot == nshapes) { shapes[nshapes] = shape; places[nshapes] = 0; nshapes++; }
        size_t a = places[slot] / lanes, b = places[slot] % lanes;
        for (;;) {
            if (b + across > lanes) { a++; b = 0; continue; }
            int free_ = 1;
            for (size_t r = 0; r < along && free_; r++)
                for (size_t c = 0; c < across; c++)
                    if (taken[(a + r) * lanes + b + c]) { free_ = 0; break; }
            if (free_) break;
            b++;
        }
        for (size_t r = 0; r < along; r++) memset(taken + (a + r) * lanes + b, 1, across);
        places[slot] = a * lanes + b;
        out[i].x = (double)b * (colw + gap);
        out[i].y = (double)a * (colw + gap);
        out[i].width = (double)across * colw + (double)(across - 1) * gap;
        out[i].height = (double)along * colw + (double)(along - 1) * gap;
        if (out[i].y + out[i].height > bottom) bottom = out[i].y + out[i].height;
    }
    free(taken);
    return bottom;
}
