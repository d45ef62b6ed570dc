package cbmctext

import "testing"

// TestLowerQuantifier: forall { T i; (i >= L && i < H) ==> B } (or L <=
// i) with L and H free of i is lowered to a loop over [L, H) when the
// loop meets every value the premise admits: T unsigned, or L a
// non-negative constant; other shapes are left to the Unsupported path.
func TestLowerQuantifier(t *testing.T) {
	for _, tc := range []struct {
		q, inner string
		ok       bool
	}{
		{"__CPROVER_forall", " int i; (i >= 0 && i < n) ==> a[i] == 0 ", true},
		{"__CPROVER_forall", " int i; \\\n (i >= 0 && i < sizeof(x)) ==> ((char *)&x)[i] == 0 ", true},
		{"__CPROVER_forall", " int i; (i >= 1 && i < n) ==> a[i] == 0 ", true},
		{"__CPROVER_forall", " int i; (i >= -1 && i < n) ==> a[i] == 0 ", false},
		{"__CPROVER_forall", " int i; (m <= i && i < n) ==> a[i] == 0 ", false},
		{"__CPROVER_forall", " int32_t i; (m <= i && i < n) ==> a[i] == 0 ", false},
		{"__CPROVER_forall", " uint32_t k; ((uint32_t)(m) <= (k) && (k) < (uint32_t)(n)) ==> (a[k] == 0) ", true},
		{"__CPROVER_forall", " size_t k; (k >= m && k < n) ==> a[k] == 0 ", true},
		{"__CPROVER_forall", " int i; (i >= 0 && i < i + 2) ==> a[i] == 0 ", false},
		{"__CPROVER_forall", " int i; (i >= 0 && j < n) ==> a[i] == 0 ", false},
		{"__CPROVER_forall", " unsigned i; (i >= 0 && i < n) ==> a[i] == 0 ", true},
		{"__CPROVER_exists", " int i; (i >= 0 && i < n) && a[i] == 0 ", true},
		{"__CPROVER_exists", " int i; (i >= 0 && i < (n - 1)) && \\\n a[i] == 0 ", true},
		{"__CPROVER_exists", " int i; (i >= 0 && i < n) && a[i] == 0 || b ", false},
		{"__CPROVER_exists", " int i; (i >= 0 && i < n) && (a[i] = 0) ", false},
		{"__CPROVER_exists", " int i; (i >= 0 && i < n) && a[i] == 0 ? 1 : 0 ", false},
		{"__CPROVER_exists", " int i; (i >= 0 && i < i + 1) && a[i] == 0 ", false},
		{"__CPROVER_exists", " int i; (i >= 1 && i < n) && a[i] == 0 ", false},
		{"__CPROVER_exists", " int i; (i >= 0 && i < n) ==> a[i] == 0 ", false},
	} {
		r, ok := lowerQuantifier(tc.q, tc.inner)
		if ok != tc.ok {
			t.Errorf("%s {%s}: lowered %v, want %v (%s)", tc.q, tc.inner, ok, tc.ok, r)
		}
	}
}
