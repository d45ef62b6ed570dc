package smt

import (
	"context"
	"errors"
	"testing"
)

// TestPollEndsAStep: the value-set recursion of one step polls the
// encoder's context, so a deadline that passes inside a long step (a
// load through a pointer read from a store chain of 1,000 writes) ends
// the step with an error wrapping the context's, where without a
// context the same recursion completes.
func TestPollEndsAStep(t *testing.T) {
	b := NewBuilder()
	arr := b.Var("mem:a", ArraySort(64, 64))
	for k := 0; k < 1000; k++ {
		arr = b.Store(arr, b.Var("j", BVSort(64)), b.BV(uint64(k), 64))
		arr = b.Store(arr, b.BV(uint64(k), 64), b.BV(uint64(k+1), 64))
	}
	load := b.Select(arr, b.Var("i", BVSort(64)))
	run := func(ctx context.Context) (s vset, err error) {
		e := &encoder{b: b, vsMemo: map[*Term]vset{}, selMemo: map[[2]*Term]vset{}, ctx: ctx}
		defer func() {
			if r := recover(); r != nil {
				err = r.(encodePanic).err
			}
		}()
		return e.vs(load), nil
	}
	if _, err := run(nil); err != nil {
		t.Fatalf("without a context: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: err = %v, want one wrapping context.Canceled", err)
	}
}
