/*
 * The yardstick of the groups engine (docs/layout.md, "Groups"): the "featured" tree of
 * samples/featured.wfl laid out once by hand (a large item beside a vertical pair, then a row of
 * three), then repeated down the section, item i leaf i mod 6 of instance i / 6.
 */
#include "cbaseline.h"

double wflc_groups_featured(size_t items, double cw, double top, double side, double spacing, double group_gap,
                            wflc_frame *out) {
    double aw = cw - side - side;
    double s = spacing;
    /* The top group: vertical, aw x 368; its first row horizontal aw x 240. */
    double row_h = 240, three_h = 116, group_h = 368;
    double big_w = (aw - s) * 2 / 3;
    double pair_w = (aw - s) / 3;
    double pair_h = (row_h - s) / 2;
    /* The row of three: count 3, (aw - s * 2) / 3 each. */
    double slot = (aw - s * (3 - 1)) / 3;
    double row2_y = 0 + row_h + s;
    wflc_frame leaf[6] = {
        {0, 0, big_w, row_h},
        {0 + big_w + s, 0, pair_w, pair_h},
        {0 + big_w + s, 0 + pair_h + s, pair_w, pair_h},
        {0, row2_y, slot, three_h},
        {0 * (slot + s), row2_y, slot, three_h},
        {2 * (slot + s), row2_y, slot, three_h},
    };
    leaf[4].x = 1 * (slot + s);
    double stride = group_h + group_gap;
    double origin = top;
    size_t g = 0, k = 0;
    for (size_t i = 0; i < items; i++) {
        out[i].x = side + leaf[k].x;
        out[i].y = origin + leaf[k].y;
        out[i].width = leaf[k].width;
        out[i].height = leaf[k].height;
        if (++k == 6) {
            k = 0;
            g++;
            origin = top + (double)g * stride;
        }
    }
    if (items == 0) return top;
    return top + (double)((items - 1) / 6) * stride + group_h;
}
