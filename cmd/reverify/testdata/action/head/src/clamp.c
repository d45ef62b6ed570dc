#include "clamp.h"

int clamp(int x) {
  if (x > LIMIT)
    return LIMIT + 1;
  return x;
}

int scale(int y) { return y * 3; }
