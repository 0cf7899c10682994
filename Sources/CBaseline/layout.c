/* The layout yardsticks: waterfall placement, flow line breaking, the `random` arithmetic of
 * docs/language.md and a brute-force rect scan, written plainly. See cbaseline.h. */

#include "cbaseline.h"

uint64_t wflc_random(uint64_t seed, uint64_t s, uint64_t i, uint64_t k, int64_t lo, int64_t hi) {
    uint64_t z = (seed + 1) * 0x9E3779B97F4A7C15ULL + s * 0xC2B2AE3D27D4EB4FULL + i * 0x165667B19E3779F9ULL
               + k * 0xD6E8FEB86659FD93ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z = z ^ (z >> 31);
    return (uint64_t)lo + z % (uint64_t)(hi - lo);
}

/* One waterfall section, order shortest, span 1, vertical, no header/footer. */
static double waterfall(int columns, const double *heights, size_t nheights, uint64_t seed, size_t items,
                        double cw, double spacing, double inset, wflc_frame *out) {
    double next[1000];
    double top = inset;
    double aw = cw - inset - inset;
    double laneW = (aw - (double)(columns - 1) * spacing) / (double)columns;
    double bottom = top;
    for (int c = 0; c < columns; c++) next[c] = top;
    for (size_t i = 0; i < items; i++) {
        int c = 0;
        double best = next[0];
        for (int lane = 1; lane < columns; lane++)
            if (next[lane] < best) { best = next[lane]; c = lane; }
        double y = next[c];
        double h = heights ? heights[i % nheights] : 50.0 + (double)wflc_random(seed, 0, i, 0, 0, 150);
        out[i].x = inset + (double)c * (laneW + spacing);
        out[i].y = y;
        out[i].width = laneW;
        out[i].height = h;
        next[c] = y + h + spacing;
        if (y + h > bottom) bottom = y + h;
    }
    return bottom + inset;
}

double wflc_waterfall_list(int columns, const double *heights, size_t nheights, size_t items, double cw,
                           double spacing, double inset, wflc_frame *out) {
    return waterfall(columns, heights, nheights, 0, items, cw, spacing, inset, out);
}

double wflc_waterfall_random(int columns, uint64_t seed, size_t items, double cw, double spacing, double inset,
                             wflc_frame *out) {
    return waterfall(columns, 0, 0, seed, items, cw, spacing, inset, out);
}

/* Flow, vertical, justify uikit (spread lines, the last one from the left when the sizes differ),
 * align center: `size 40 + random(0, 120) x 30 + random(0, 40)`. */
double wflc_flow_random(uint64_t seed, size_t items, double cw, double spacing, wflc_frame *out) {
    double aw = cw, left = 0, top = 0, y = 0, bottom = 0;
    int first_line = 1;
    double prev_y = 0, prev_h = 0;
    for (size_t i = 0; i < items; i++) {
        out[i].width = 40.0 + (double)wflc_random(seed, 0, i, 0, 0, 120);
        out[i].height = 30.0 + (double)wflc_random(seed, 0, i, 1, 0, 40);
    }
    size_t j = 0;
    while (j < items) {
        double used = out[j].width, lineH = out[j].height;
        size_t end = j + 1;
        while (end < items && used + spacing + out[end].width <= aw + 1e-6) {
            used = used + spacing + out[end].width;
            if (out[end].height > lineH) lineH = out[end].height;
            end++;
        }
        y = first_line ? top : prev_y + prev_h + spacing;
        size_t m = end - j;
        double x = left, gap = spacing;
        if (end < items) {
            if (m >= 2) gap = spacing + (aw - used) / (double)(m - 1);
            else x = left + (aw - used) / 2;
        } else if (first_line && m == 1) {
            x = left + (aw - used) / 2;
        }
        for (size_t q = j; q < end; q++) {
            out[q].x = x;
            out[q].y = y + (lineH - out[q].height) / 2;
            x += out[q].width + gap;
        }
        bottom = y + lineH;
        prev_y = y;
        prev_h = lineH;
        first_line = 0;
        j = end;
    }
    return bottom;
}

size_t wflc_rect_scan(const wflc_frame *frames, size_t n, double x, double y, double w, double h, int32_t *out) {
    size_t found = 0;
    for (size_t j = 0; j < n; j++) {
        const wflc_frame *f = &frames[j];
        if (f->x < x + w && x < f->x + f->width && f->y < y + h && y < f->y + f->height) out[found++] = (int32_t)j;
    }
    return found;
}
