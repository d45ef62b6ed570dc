//go:build linux && cgo

package strategy

// #include <malloc.h>
import "C"

// releaseNative returns the C heap's free memory to the system
// (glibc's malloc_trim): Z3 frees what a cancelled check allocated,
// but glibc keeps the pages, and the resident set the watch measures
// would go on counting them against the next property.
func releaseNative() { C.malloc_trim(0) }
