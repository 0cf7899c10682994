/* The output yardstick: the json table of docs/usage.md written with fprintf. See cbaseline.h. */

#include <stdio.h>
#include "cbaseline.h"

int wflc_write_json(const char *path, const char *name, double cw, double ch, double contentW, double contentH,
                    const wflc_frame *frames, size_t n) {
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "{\n  \"layouts\": [\n    {\n      \"name\": \"%s\",\n      \"style\": \"waterfall\",\n"
               "      \"direction\": \"vertical\",\n      \"container\": [%.17g, %.17g],\n"
               "      \"contentSize\": [%.17g, %.17g],\n      \"elements\": [",
            name, cw, ch, contentW, contentH);
    for (size_t j = 0; j < n; j++) {
        fprintf(f, "%s        {\"kind\": \"cell\", \"section\": 0, \"item\": %zu, \"frame\": [%.17g, %.17g, %.17g, %.17g], \"zIndex\": 0}",
                j == 0 ? "\n" : ",\n", j, frames[j].x, frames[j].y, frames[j].width, frames[j].height);
    }
    fprintf(f, n ? "\n      ]\n    }\n  ]\n}\n" : "]\n    }\n  ]\n}\n");
    return fclose(f);
}
