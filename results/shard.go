package results

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// Shard selects the properties of one job of a GitHub Actions matrix:
// shard K of N (1 ≤ K ≤ N) owns the properties whose ID hashes to K-1
// modulo N. The hash is the first 8 bytes of SHA-256 over the property
// ID, which survives edits elsewhere (doc/DESIGN.md, "Output contracts"), so
// a property stays in its shard from run to run and each shard's verdict
// cache stays warm. The zero value (N = 0) selects everything.
type Shard struct {
	K, N int
}

// ParseShard parses "K/N", e.g. "2/4"; "" is the zero shard.
func ParseShard(s string) (Shard, error) {
	if strings.TrimSpace(s) == "" {
		return Shard{}, nil
	}
	ks, ns, ok := strings.Cut(strings.TrimSpace(s), "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return Shard{}, fmt.Errorf("bad shard %q: want K/N with 1 <= K <= N, e.g. 2/4", s)
	}
	return Shard{K: k, N: n}, nil
}

func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Set and String make *Shard a flag.Value.
func (s *Shard) Set(v string) error {
	p, err := ParseShard(v)
	if err != nil {
		return err
	}
	*s = p
	return nil
}

// Active reports whether the shard selects a subset.
func (s Shard) Active() bool { return s.N > 1 }

// Owns reports whether property id belongs to the shard.
func (s Shard) Owns(id string) bool {
	if !s.Active() {
		return true
	}
	h := sha256.Sum256([]byte(id))
	return binary.BigEndian.Uint64(h[:8])%uint64(s.N) == uint64(s.K-1)
}
