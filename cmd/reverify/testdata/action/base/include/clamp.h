#ifndef CLAMP_H
#define CLAMP_H

#define LIMIT 10

int clamp(int x);
int scale(int y);

#endif
