package interp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/interp"
)

// TestMemoryQueries runs CBMC's memory primitives concretely: each
// result is one bit of main's exit value.
func TestMemoryQueries(t *testing.T) {
	p := translate(t, `extern void *malloc(unsigned long);
extern void free(void *);
char g[4];
char *dead(void) { char l[2]; char *q = l; return q; }
int main(void) {
	char *p = malloc(4);
	int r = 0;
	r |= __CPROVER_r_ok(p, 4) << 0;
	r |= __CPROVER_r_ok(p, 5) << 1;
	r |= __CPROVER_w_ok(p + 4, 0) << 2;
	r |= __CPROVER_rw_ok(p + 1, 3) << 3;
	r |= __CPROVER_same_object(p, p + 3) << 4;
	r |= __CPROVER_same_object(p, g) << 5;
	r |= (__CPROVER_POINTER_OFFSET(p + 3) == 3) << 6;
	r |= __CPROVER_r_ok((char *)0, 0) << 7;
	r |= (__CPROVER_POINTER_OBJECT((char *)0) == 0) << 8;
	free(p);
	r |= __CPROVER_r_ok(p, 1) << 9;
	r |= __CPROVER_r_ok(g, 4) << 10;
	r |= __CPROVER_r_ok(dead(), 1) << 11;
	return r;
}
`)
	// inputs 0: declarations, malloc-may-fail (the block), POINTER_OBJECT
	tr, err := interp.Run(context.Background(), p, "main", repeat(0, 16), interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const want = 1<<0 | 1<<2 | 1<<3 | 1<<4 | 1<<6 | 1<<8 | 1<<10
	if tr.Stop != interp.ReachedExit || tr.Exit != want {
		t.Fatalf("%v (%s) exit %#b, want %#b", tr.Stop, tr.Reason, tr.Exit, want)
	}

	q := translate(t, `char g[4];
int main(void) { return __CPROVER_POINTER_OBJECT(g) == 1; }
`)
	tr, err = interp.Run(context.Background(), q, "main", nil, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Stop != interp.Unsupported || !strings.Contains(tr.Reason, "object numbers are CBMC's") {
		t.Errorf("POINTER_OBJECT(g): %v (%s), want unsupported", tr.Stop, tr.Reason)
	}
}
