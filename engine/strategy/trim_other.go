//go:build !linux || !cgo

package strategy

// releaseNative does nothing where the C heap cannot be trimmed.
func releaseNative() {}
