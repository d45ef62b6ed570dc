package z3

// #include <malloc.h>
import "C"

// TrimHeap returns the C heap's free pages to the system (glibc's
// malloc_trim). Z3 frees what a finished or cancelled check allocated,
// but glibc keeps the pages, and a resident-set measure (the engine's
// memory watch) would go on counting them against the next property.
// It takes milliseconds on a heap of gigabytes; the engine calls it
// only when the memory in use exceeds its budget.
func TrimHeap() { C.malloc_trim(0) }
