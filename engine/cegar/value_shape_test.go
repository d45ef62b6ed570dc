package cegar_test

import (
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/cegar"
)

// countedList builds a list of exactly n nodes and counts them on the
// way back: with the default list abstraction (chains of three blocks
// and more merge into a segment of at least three) the count is lost.
const countedList = `void *malloc(unsigned long);
void abort(void);
struct node { int data; struct node *next; };
int main(void) {
	struct node *head = 0;
	for (int i = 0; i < N; i++) {
		struct node *n = malloc(sizeof *n);
		if (!n) abort();
		n->data = 0;
		n->next = head;
		head = n;
	}
	int len = 0;
	for (struct node *p = head; p; p = p->next)
		len++;
	if (len != N)
		reach_error();
	return 0;
}`

// TestShapeRefinement: an error path through a longer list than the
// program builds is feasible for the value analysis with full precision
// and the list abstraction, infeasible without it; shape refinement
// (value_shape.go) raises the chain length the loop heads on the path
// abstract, one rung at a time, until the n nodes stay concrete: for 5
// nodes the first rung (6) suffices, for 20 the ladder ends with the
// abstraction off at both loop heads. Every refinement makes progress
// (a rung is never added twice), so the ladder is climbed at most three
// times per loop head.
func TestShapeRefinement(t *testing.T) {
	for _, tc := range []struct {
		n, shape int
		top      string
	}{
		{5, 1, "<lists>6@main:+2:[i < 5]"},
		{20, 3, "<lists>off@main:+2:[i < 20]"},
	} {
		src := strings.ReplaceAll(countedList, "N", map[int]string{5: "5", 20: "20"}[tc.n])
		r := valueCEGAR(t, src, time.Minute, cegar.Options{}, cegar.ValueOptions{})
		if r.res.Status != cegar.Safe {
			t.Fatalf("n=%d: %v (%s), want safe", tc.n, r.res.Status, r.res.Reason)
		}
		if got := r.ref.Stats.ShapeRefinements; got != tc.shape {
			t.Errorf("n=%d: %d shape refinements, want %d", tc.n, got, tc.shape)
		}
		prec := strings.Join(r.res.PrecisionText(r.ref), " | ")
		if !strings.Contains(prec, tc.top) {
			t.Errorf("n=%d: precision %s lacks %s", tc.n, prec, tc.top)
		}
		if strings.Contains(prec, "<heap>+0") || strings.Contains(prec, "<heap>@") {
			t.Errorf("n=%d: precision %s tracks the data field or the whole heap; only the links are needed", tc.n, prec)
		}
	}
}
