package frontend

import (
	"fmt"
	"strings"
	"testing"
)

// TestInitialiserLimit: an initialiser list of more than maxInitScalars
// elements is an unsupported construct, not one edge per element (which
// held gigabytes and minutes outside every property's limits); one of
// maxInitScalars elements is translated.
func TestInitialiserLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("translates an initialiser of 65,537 elements")
	}
	for _, n := range []int{maxInitScalars, maxInitScalars + 1} {
		var b strings.Builder
		fmt.Fprintf(&b, "unsigned char big[%d] = {", n)
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%d,", i%251+1)
		}
		b.WriteString("};\nint main(void) { return big[5]; }\n")
		p, err := TranslateSources(Options{}, []Source{{Name: "big.c", Content: b.String()}})
		if err != nil {
			t.Fatal(err)
		}
		unsupported := strings.Contains(p.Text(), "unsupported: initialiser of")
		if want := n > maxInitScalars; unsupported != want {
			t.Errorf("%d elements: unsupported %v, want %v", n, unsupported, want)
		}
	}
}
