/*===- PrintTensor.c - What compiled trace.print calls --------------------===*\
|*                                                                            *|
|* One write per call, flushed, so that prints interleave with the host       *|
|* program's own output in program order.                                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "tracec/ABI/tracec_print.h"

#include "tracec/ABI/tracec_format.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tracec_print_tensor(const char *message, int32_t dtype, int64_t rank,
                         const int64_t *shape, const void *data) {
  if (!message)
    message = "";
  char *tensor = tracec_format_tensor(dtype, rank, shape, data);
  char unknown[64] = "<tensor: out of memory>";
  if (dtype < TRACEC_DTYPE_F16 || dtype > TRACEC_DTYPE_I64 || rank < 0)
    snprintf(unknown, sizeof(unknown),
             "<tensor of unknown dtype code %" PRId32 ">", dtype);
  const char *body = tensor ? tensor : unknown;
  const char *space = *message ? " " : "";
  size_t length = strlen(message) + strlen(space) + strlen(body) + 1;
  char *line = malloc(length + 1);
  if (line) {
    snprintf(line, length + 1, "%s%s%s\n", message, space, body);
    fwrite(line, 1, length, stdout);
  } else {
    printf("%s%s%s\n", message, space, body);
  }
  fflush(stdout);
  free(line);
  free(tensor);
}
