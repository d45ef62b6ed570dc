package cpa

// SetSignatureFilter switches the stop index's signature test on or off
// and returns the previous setting (the baseline of BenchmarkFlags).
func SetSignatureFilter(on bool) bool {
	old := signatureFilter
	signatureFilter = on
	return old
}
