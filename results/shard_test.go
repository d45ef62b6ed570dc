package results_test

import (
	"fmt"
	"testing"

	"github.com/reverify/reverify/results"
)

func TestParseShard(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want results.Shard
		err  bool
	}{
		{"", results.Shard{}, false},
		{"1/1", results.Shard{1, 1}, false},
		{" 2/4 ", results.Shard{2, 4}, false},
		{"0/4", results.Shard{}, true},
		{"5/4", results.Shard{}, true},
		{"1/0", results.Shard{}, true},
		{"2", results.Shard{}, true},
		{"a/b", results.Shard{}, true},
	} {
		got, err := results.ParseShard(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("results.ParseShard(%q) = %v, %v", tt.in, got, err)
		}
	}
}

// TestShardPartition: for each N, every property ID lies in exactly one
// of the shards 1/N … N/N, the same one each time, and the shards are
// not grossly unbalanced.
func TestShardPartition(t *testing.T) {
	var ids []string
	for i := 0; i < 400; i++ {
		ids = append(ids, fmt.Sprintf("f%d:x[%d]>=0", i%7, i))
	}
	for _, n := range []int{1, 2, 3, 8} {
		count := make([]int, n)
		for _, id := range ids {
			owners := 0
			for k := 1; k <= n; k++ {
				if (results.Shard{k, n}).Owns(id) {
					owners++
					count[k-1]++
				}
			}
			if owners != 1 {
				t.Fatalf("N=%d: %s is in %d shards", n, id, owners)
			}
		}
		for k, c := range count {
			if c < len(ids)/n/2 {
				t.Errorf("N=%d: shard %d has %d of %d properties", n, k+1, c, len(ids))
			}
		}
	}
	// Pinned: the split must not change between versions, or shard
	// caches go cold.
	if !(results.Shard{3, 3}).Owns("main:x>0") || !(results.Shard{2, 2}).Owns("main:x>0") {
		t.Errorf("main:x>0 moved: shard 1/3 %v, 2/3 %v, 3/3 %v", results.Shard{1, 3}.Owns("main:x>0"), results.Shard{2, 3}.Owns("main:x>0"), results.Shard{3, 3}.Owns("main:x>0"))
	}
}
