package witness

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

// TestReproducerInputFunctions: a counterexample through the C
// library's input functions (cfa.InputCall: rand, random, time, clock)
// has a reproducer that defines them with the counterexample's values,
// time storing its value through its argument as well, so that the
// program compiled with gcc reaches the reported assertion (exit 77);
// other values do not. Without the harness's definitions the C
// library's functions would return other values.
func TestReproducerInputFunctions(t *testing.T) {
	const src = `#include <assert.h>
#include <stdlib.h>
#include <time.h>
int main(void) {
  srand(1);
  int r = rand();
  long q = random();
  time_t t0;
  time_t t = time(&t0);
  clock_t c = clock();
  if (t0 == 1700000000 && t == t0 && time(0) == -1)
    assert(!(r == 12345 && q == 2147483647L && c == 42));
  return 0;
}
`
	for _, dm := range []cfa.DataModel{cfa.LP64, cfa.ILP32} {
		t.Run(dm.String(), func(t *testing.T) {
			// in path order: the locals' indeterminate values at their
			// declarations and the calls' values
			v := smtViolation(t, dm, src, []uint64{0, 12345, 0, 2147483647, 0, 0, 1700000000, 0, 42, 1<<64 - 1})
			harness, err := Reproducer(v)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"int rand(void)", "long random(void)", "time_t time(time_t *rv_t)", "clock_t clock(void)", `{"rand", 0x3039ULL`} {
				if !strings.Contains(harness, want) {
					t.Errorf("harness lacks %q:\n%s", want, harness)
				}
			}
			needGCC(t, dm)
			if code, stderr := runSource(t, dm, src, harness); code != ReachedExitCode || !strings.Contains(stderr, ReachedMarker) {
				t.Fatalf("exit %d, stderr %q\n--- harness:\n%s", code, stderr, harness)
			}
			// clock's value 41 instead: the assertion holds
			wrong := strings.Replace(harness, `{"clock", 0x2aULL`, `{"clock", 0x29ULL`, 1)
			if wrong == harness {
				t.Fatalf("no value 42 of clock in the harness:\n%s", harness)
			}
			harness = wrong
			if code, stderr := runSource(t, dm, src, harness); code == ReachedExitCode || strings.Contains(stderr, ReachedMarker) {
				t.Errorf("clock 41: exit %d, stderr %q", code, stderr)
			}
		})
	}
}
