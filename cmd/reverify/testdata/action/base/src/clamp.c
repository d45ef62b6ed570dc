#include "clamp.h"

int clamp(int x) {
  if (x > LIMIT)
    return LIMIT;
  return x;
}

int scale(int y) { return y * 3; }
