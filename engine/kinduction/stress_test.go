package kinduction_test

import (
	"flag"
	"sync"
	"testing"

	"github.com/reverify/reverify/engine/kinduction"
)

var stressN = flag.Int("kind.stress", 0, "runs of TestStressGlobal (0: skip)")

const globalFalse = `unsigned int g = 0;
unsigned int h = 0;
void tick(void) { g += 2; h++; }
int main(void) {
	while (__VERIFIER_nondet_int()) { tick(); }
	__VERIFIER_assert(g != 4);
	return 0;
}`

func TestStressGlobal(t *testing.T) {
	if *stressN == 0 {
		t.Skip("-kind.stress N")
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i := 0; i < *stressN; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			r := check(t, globalFalse, kinduction.Options{})
			if r.Status != kinduction.False {
				t.Errorf("run %d: %v at k=%d (%s)", i, r.Status, r.K, r.Reason)
			}
		}()
	}
	wg.Wait()
}
