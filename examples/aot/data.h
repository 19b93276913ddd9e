// The examples' inputs and initial weights: simple formulas whose values
// are exact in float, so check_examples.py rebuilds them bit for bit.
#ifndef EXAMPLES_AOT_DATA_H
#define EXAMPLES_AOT_DATA_H

#include <stdint.h>

static inline float example_x(int i) { return (float)((i * 7) % 11 - 5) / 4.0f; }
static inline int32_t example_label(int i) { return i % 3; }
static inline float example_w1(int i) { return (float)((i * 5) % 13 - 6) / 16.0f; }
static inline float example_w2(int i) { return (float)((i * 3) % 7 - 3) / 8.0f; }

#endif
