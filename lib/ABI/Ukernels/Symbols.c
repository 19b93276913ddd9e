/*===- Symbols.c - The micro-kernels by name, for the JIT -----------------===*/

#include "tracec/ABI/tracec_ukernels.h"

#include <stddef.h>

#define TRACEC_UK_SYMBOL(name) {#name, (void *)&name}

static const struct tracec_ukernel_symbol kSymbols[] = {
    TRACEC_UK_SYMBOL(tracec_uk_mmt4d_f32_avx512),
    TRACEC_UK_SYMBOL(tracec_uk_mmt4d_f32_avx2),
    TRACEC_UK_SYMBOL(tracec_uk_mmt4d_f32_generic),
    TRACEC_UK_SYMBOL(tracec_uk_transpose_f32_avx512),
    TRACEC_UK_SYMBOL(tracec_uk_transpose_f32_avx2),
    TRACEC_UK_SYMBOL(tracec_uk_transpose_f32_generic),
    {NULL, NULL},
};

const struct tracec_ukernel_symbol *tracec_ukernel_symbols(void) {
  return kSymbols;
}
