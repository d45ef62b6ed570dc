package cpa

import "testing"

// TestSignatureKeyFeatures: states that share thousands of bulk features
// (every bit of a filter over them set) and differ in one key feature
// must still be told apart by the filter over key features, and a state
// whose features are a superset must still pass.
func TestSignatureKeyFeatures(t *testing.T) {
	bulk := make([]uint64, 0, 1000)
	for i := uint64(1); i <= 4000; i++ {
		bulk = append(bulk, (i*0x94d049bb133111eb)|BulkFeature)
	}
	with := func(key ...uint64) []uint64 {
		return append(append([]uint64(nil), key...), bulk...)
	}
	const i3, i4 = 0x1234_5678_9abc_def1, 0x0fed_cba9_8765_4321
	r, s := signatureOf(with(i3)), signatureOf(with(i4))
	for i := 4; i < 8; i++ {
		if r[i]&^s[i] != 0 {
			t.Fatalf("word %d of the filter over bulk features separates the states: the bulk features should fill it", i)
		}
	}
	if r.mayCover(&s) {
		t.Errorf("a state with key feature i=3 may cover one with i=4: the key filter does not separate them")
	}
	sup := signatureOf(with(i3, i4))
	if !r.mayCover(&sup) {
		t.Errorf("a state whose features are a subset of another's must pass the filter")
	}
	if sup.mayCover(&r) {
		t.Errorf("a state with more key features cannot cover one with fewer")
	}
}
