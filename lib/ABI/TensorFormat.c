/*===- TensorFormat.c - Printing tensors the way NumPy does ---------------===*\
|*                                                                            *|
|* NumPy's defaults (np.set_printoptions: precision 8, floatmode 'maxprec'):  *|
|* each float is the shortest decimal, with at most 8 fraction digits, that   *|
|* reads back as the same value of its dtype; columns align on the decimal    *|
|* point; scientific notation is used when a magnitude is >= 1e8 or < 1e-4,   *|
|* or when the largest and smallest differ by more than 1000x. Rows wrap at   *|
|* 75 columns; more than 1000 elements are summarized with "...".            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "tracec/ABI/tracec_format.h"

#include "tracec/ABI/tracec_print.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  kMaxPrecision = 8,
  kLineWidth = 75,
  kSummaryThreshold = 1000,
  kEdgeItems = 3,
  /* The longest element: "-9223372036854775808", "-1.23456789e+308",
     "-99999999.12345678", then padded to align (at most twice that). */
  kElementSize = 64
};

/*===----------------------------------------------------------------------===*/
/* A growing string                                                          */
/*===----------------------------------------------------------------------===*/

typedef struct {
  char *data;
  size_t size, capacity;
  int failed;
} Text;

static void appendBytes(Text *t, const char *bytes, size_t n) {
  if (t->failed)
    return;
  if (t->size + n + 1 > t->capacity) {
    size_t capacity = t->capacity ? t->capacity : 64;
    while (t->size + n + 1 > capacity)
      capacity *= 2;
    char *data = realloc(t->data, capacity);
    if (!data) {
      t->failed = 1;
      return;
    }
    t->data = data;
    t->capacity = capacity;
  }
  memcpy(t->data + t->size, bytes, n);
  t->size += n;
  t->data[t->size] = '\0';
}

static void append(Text *t, const char *s) { appendBytes(t, s, strlen(s)); }

static void appendRepeated(Text *t, char c, size_t n) {
  for (size_t i = 0; i < n; ++i)
    appendBytes(t, &c, 1);
}

/* The text, or NULL if an allocation failed; the caller owns it. */
static char *release(Text *t) {
  if (t->failed) {
    free(t->data);
    return NULL;
  }
  if (!t->data)
    return calloc(1, 1);
  return t->data;
}

/*===----------------------------------------------------------------------===*/
/* Elements                                                                  */
/*===----------------------------------------------------------------------===*/

static int isFloat(int32_t dtype) { return dtype <= TRACEC_DTYPE_F64; }

static double halfToDouble(uint16_t bits) {
  int exponent = (bits >> 10) & 0x1f;
  int mantissa = bits & 0x3ff;
  double value;
  if (exponent == 0)
    value = ldexp(mantissa, -24);
  else if (exponent == 31)
    value = mantissa ? NAN : INFINITY;
  else
    value = ldexp(mantissa | 0x400, exponent - 25);
  return (bits & 0x8000) ? -value : value;
}

static double bfloat16ToDouble(uint16_t bits) {
  uint32_t word = (uint32_t)bits << 16;
  float value;
  memcpy(&value, &word, sizeof(value));
  return value;
}

static double elementAsDouble(int32_t dtype, const void *data, int64_t i) {
  const unsigned char *base = data;
  uint16_t bits;
  float f;
  double d;
  switch (dtype) {
  case TRACEC_DTYPE_F16:
    memcpy(&bits, base + 2 * i, 2);
    return halfToDouble(bits);
  case TRACEC_DTYPE_BF16:
    memcpy(&bits, base + 2 * i, 2);
    return bfloat16ToDouble(bits);
  case TRACEC_DTYPE_F32:
    memcpy(&f, base + 4 * i, 4);
    return f;
  default:
    memcpy(&d, base + 8 * i, 8);
    return d;
  }
}

/* `value` rounded (to nearest, ties to even) to a binary format with
   `mantissaBits` stored mantissa bits and normal exponents in
   [minExponent, maxExponent]. */
static double roundToFormat(double value, int mantissaBits, int minExponent,
                            int maxExponent) {
  if (!isfinite(value) || value == 0)
    return value;
  int e;
  (void)frexp(value, &e);
  int exponent = e - 1 < minExponent ? minExponent : e - 1;
  double ulp = ldexp(1.0, exponent - mantissaBits);
  double rounded = nearbyint(value / ulp) * ulp;
  if (fabs(rounded) >= ldexp(1.0, maxExponent + 1))
    return copysign(INFINITY, value);
  return rounded;
}

/* `text` parsed back into `dtype`'s precision, as a double. */
static double roundTrip(const char *text, int32_t dtype) {
  switch (dtype) {
  case TRACEC_DTYPE_F16:
    return roundToFormat(strtod(text, NULL), 10, -14, 15);
  case TRACEC_DTYPE_BF16:
    return roundToFormat(strtod(text, NULL), 7, -126, 127);
  case TRACEC_DTYPE_F32:
    return strtof(text, NULL);
  default:
    return strtod(text, NULL);
  }
}

/* The fewest digits (up to 8) after the point, in fixed or scientific
   notation, that read back as `value`. */
static int shortestDigits(double value, int32_t dtype, int scientific) {
  char text[kElementSize * 8];
  for (int digits = 0; digits < kMaxPrecision; ++digits) {
    snprintf(text, sizeof(text), scientific ? "%.*e" : "%.*f", digits, value);
    if (roundTrip(text, dtype) == value)
      return digits;
  }
  return kMaxPrecision;
}

/* Trailing zeros of the fraction go ("2.50" -> "2.5", "1.00" -> "1."). */
static void trimFraction(char *text) {
  char *point = strchr(text, '.');
  if (!point) {
    strcat(text, ".");
    return;
  }
  char *last = text + strlen(text) - 1;
  while (last > point && *last == '0')
    --last;
  last[1] = '\0';
}

typedef char Element[kElementSize];

static void formatFloats(int32_t dtype, const void *data, int64_t count,
                         Element *elements) {
  double maxAbs = 0, minAbs = INFINITY;
  for (int64_t i = 0; i < count; ++i) {
    double a = fabs(elementAsDouble(dtype, data, i));
    if (isfinite(a) && a != 0) {
      maxAbs = a > maxAbs ? a : maxAbs;
      minAbs = a < minAbs ? a : minAbs;
    }
  }
  int scientific = maxAbs >= 1e8 ||
                   (maxAbs > 0 && (minAbs < 1e-4 || maxAbs / minAbs > 1e3));
  /* Scientific notation uses one precision for all elements. */
  int sharedDigits = 0;
  if (scientific)
    for (int64_t i = 0; i < count; ++i) {
      double v = elementAsDouble(dtype, data, i);
      if (isfinite(v)) {
        int digits = shortestDigits(v, dtype, 1);
        sharedDigits = digits > sharedDigits ? digits : sharedDigits;
      }
    }

  for (int64_t i = 0; i < count; ++i) {
    double v = elementAsDouble(dtype, data, i);
    char *e = elements[i];
    if (isnan(v)) {
      strcpy(e, "nan");
    } else if (isinf(v)) {
      strcpy(e, v > 0 ? "inf" : "-inf");
    } else if (scientific) {
      snprintf(e, kElementSize, "%.*e", sharedDigits, v);
      if (sharedDigits == 0) { /* NumPy keeps the point: "1.e-05" */
        char *exponent = strchr(e, 'e');
        memmove(exponent + 1, exponent, strlen(exponent) + 1);
        *exponent = '.';
      }
    } else {
      snprintf(e, kElementSize, "%.*f", shortestDigits(v, dtype, 0), v);
      trimFraction(e);
    }
  }
}

static void formatIntegers(int32_t dtype, const void *data, int64_t count,
                           Element *elements) {
  const unsigned char *base = data;
  for (int64_t i = 0; i < count; ++i) {
    if (dtype == TRACEC_DTYPE_I1) {
      strcpy(elements[i], base[i] ? "True" : "False");
    } else if (dtype == TRACEC_DTYPE_I32) {
      int32_t v;
      memcpy(&v, base + 4 * i, 4);
      snprintf(elements[i], kElementSize, "%" PRId32, v);
    } else {
      int64_t v;
      memcpy(&v, base + 8 * i, 8);
      snprintf(elements[i], kElementSize, "%" PRId64, v);
    }
  }
}

static int isPositional(const char *e) {
  return strchr(e, '.') && !strchr(e, 'e');
}

/* Pads the elements to one width; positional floats align on the decimal
   point ("[ 1.   2.5]"). */
static void alignElements(Element *elements, int64_t count) {
  size_t intWidth = 0, fracWidth = 0, width = 0;
  for (int64_t i = 0; i < count; ++i) {
    if (!isPositional(elements[i]))
      continue;
    size_t point = (size_t)(strchr(elements[i], '.') - elements[i]);
    size_t frac = strlen(elements[i]) - point - 1;
    intWidth = point > intWidth ? point : intWidth;
    fracWidth = frac > fracWidth ? frac : fracWidth;
  }
  for (int64_t i = 0; i < count; ++i) {
    char *e = elements[i];
    if (isPositional(e)) {
      size_t point = (size_t)(strchr(e, '.') - e);
      size_t frac = strlen(e) - point - 1;
      char padded[kElementSize];
      snprintf(padded, sizeof(padded), "%*s%s%*s", (int)(intWidth - point), "",
               e, (int)(fracWidth - frac), "");
      strcpy(e, padded);
    }
    size_t length = strlen(e);
    width = length > width ? length : width;
  }
  for (int64_t i = 0; i < count; ++i) {
    char padded[kElementSize];
    snprintf(padded, sizeof(padded), "%*s", (int)width, elements[i]);
    strcpy(elements[i], padded);
  }
}

/*===----------------------------------------------------------------------===*/
/* Nested brackets (NumPy's _formatArray)                                    */
/*===----------------------------------------------------------------------===*/

typedef struct {
  const int64_t *shape;
  int64_t rank;
  const Element *elements;
  int summarize;
  int64_t *index; /* rank entries */
} Layout;

/* Appends `word` to `line`, first moving `line` into `s` if the word would
   not fit (unless the line holds nothing but the indent). */
static void extend(Text *s, Text *line, const char *word, size_t width,
                   size_t prefixLength, const char *prefix) {
  if (line->size + strlen(word) > width && line->size > prefixLength) {
    size_t end = line->size;
    while (end > 0 && line->data[end - 1] == ' ')
      --end;
    appendBytes(s, line->data, end);
    append(s, "\n");
    line->size = 0;
    appendBytes(line, prefix, prefixLength);
  }
  append(line, word);
}

static char *formatAxis(const Layout *l, int64_t axis, const char *hanging,
                        int width);

/* Item `i` of `axis`, formatted with the next axis's indent and width. */
static char *formatItem(const Layout *l, int64_t axis, int64_t i,
                        const char *nextHanging, int nextWidth, Text *s) {
  l->index[axis] = i;
  char *item = formatAxis(l, axis + 1, nextHanging, nextWidth);
  if (!item)
    s->failed = 1;
  return item;
}

/* One line of elements after another, each at most `width - 1` columns,
   continued under `hanging`. */
static void formatRow(const Layout *l, int64_t axis, const char *hanging,
                      int width, const char *nextHanging, int summary,
                      Text *s) {
  int64_t length = l->shape[axis];
  int64_t leading = summary ? kEdgeItems : 0;
  int64_t trailing = summary ? kEdgeItems : length;
  size_t elementWidth = (size_t)(width - 1);
  size_t hangingLength = strlen(hanging);
  Text line = {0};
  append(&line, hanging);
  for (int64_t i = 0; i < leading; ++i) {
    char *item = formatItem(l, axis, i, nextHanging, width - 1, s);
    extend(s, &line, item ? item : "", elementWidth, hangingLength, hanging);
    append(&line, " ");
    free(item);
  }
  if (summary) {
    extend(s, &line, "...", elementWidth, hangingLength, hanging);
    append(&line, " ");
  }
  for (int64_t i = trailing; i >= 1; --i) {
    char *item = formatItem(l, axis, length - i, nextHanging, width - 1, s);
    extend(s, &line, item ? item : "", elementWidth, hangingLength, hanging);
    if (i > 1)
      append(&line, " ");
    free(item);
  }
  if (line.failed)
    s->failed = 1;
  if (line.data)
    appendBytes(s, line.data, line.size);
  free(line.data);
}

/* Sub-arrays one per line, blank lines between those of rank > 1. */
static void formatRows(const Layout *l, int64_t axis, const char *hanging,
                       const char *nextHanging, int nextWidth, int summary,
                       Text *s) {
  int64_t length = l->shape[axis];
  int64_t leading = summary ? kEdgeItems : 0;
  int64_t trailing = summary ? kEdgeItems : length;
  size_t separators = (size_t)(l->rank - axis - 1);
  for (int64_t i = 0; i < leading; ++i) {
    char *item = formatItem(l, axis, i, nextHanging, nextWidth, s);
    append(s, hanging);
    append(s, item ? item : "");
    appendRepeated(s, '\n', separators);
    free(item);
  }
  if (summary) {
    append(s, hanging);
    append(s, "...");
    appendRepeated(s, '\n', separators);
  }
  for (int64_t i = trailing; i >= 1; --i) {
    char *item = formatItem(l, axis, length - i, nextHanging, nextWidth, s);
    append(s, hanging);
    append(s, item ? item : "");
    if (i > 1)
      appendRepeated(s, '\n', separators);
    free(item);
  }
}

static char *formatAxis(const Layout *l, int64_t axis, const char *hanging,
                        int width) {
  Text s = {0};
  if (axis == l->rank) {
    int64_t linear = 0;
    for (int64_t d = 0; d < l->rank; ++d)
      linear = linear * l->shape[d] + l->index[d];
    append(&s, l->elements[linear]);
    return release(&s);
  }
  size_t hangingLength = strlen(hanging);
  char *nextHanging = malloc(hangingLength + 2);
  if (!nextHanging)
    return NULL;
  memcpy(nextHanging, hanging, hangingLength);
  strcpy(nextHanging + hangingLength, " ");
  int summary = l->summarize && 2 * kEdgeItems < l->shape[axis];
  if (axis == l->rank - 1)
    formatRow(l, axis, hanging, width, nextHanging, summary, &s);
  else
    formatRows(l, axis, hanging, nextHanging, width - 1, summary, &s);
  free(nextHanging);

  /* "[" + s without its first indent + "]" */
  Text result = {0};
  append(&result, "[");
  if (s.data && s.size >= hangingLength)
    appendBytes(&result, s.data + hangingLength, s.size - hangingLength);
  append(&result, "]");
  if (s.failed)
    result.failed = 1;
  free(s.data);
  return release(&result);
}

/*===----------------------------------------------------------------------===*/
/* The entry point                                                           */
/*===----------------------------------------------------------------------===*/

char *tracec_format_tensor(int32_t dtype, int64_t rank, const int64_t *shape,
                           const void *data) {
  if (dtype < TRACEC_DTYPE_F16 || dtype > TRACEC_DTYPE_I64 || rank < 0)
    return NULL;
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d)
    count *= shape[d];
  if (count == 0) {
    Text empty = {0};
    append(&empty, "[]");
    return release(&empty);
  }
  Element *elements = malloc((size_t)count * sizeof(Element));
  int64_t *index = calloc((size_t)rank + 1, sizeof(int64_t));
  if (!elements || !index) {
    free(elements);
    free(index);
    return NULL;
  }
  if (isFloat(dtype))
    formatFloats(dtype, data, count, elements);
  else
    formatIntegers(dtype, data, count, elements);

  char *text;
  if (rank == 0) {
    /* A 0-d float prints as "29.0" where an array element is "29.". */
    Text t = {0};
    append(&t, elements[0]);
    if (t.size && t.data[t.size - 1] == '.')
      append(&t, "0");
    text = release(&t);
  } else {
    alignElements(elements, count);
    Layout layout = {shape, rank, (const Element *)elements,
                     count > kSummaryThreshold, index};
    text = formatAxis(&layout, 0, " ", kLineWidth);
  }
  free(elements);
  free(index);
  return text;
}
