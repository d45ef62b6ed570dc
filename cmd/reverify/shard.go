package main

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/spec"
)

// shard selects the properties of one job of a GitHub Actions matrix:
// shard K of N (1 ≤ K ≤ N) owns the properties whose ID hashes to K-1
// modulo N. The hash is the first 8 bytes of SHA-256 over the property
// ID, which survives edits elsewhere (DESIGN.md, "Output contracts"), so
// a property stays in its shard from run to run and each shard's verdict
// cache stays warm. The zero value (N = 0) selects everything.
type shard struct {
	K, N int
}

// parseShard parses "K/N", e.g. "2/4"; "" is the zero shard.
func parseShard(s string) (shard, error) {
	if strings.TrimSpace(s) == "" {
		return shard{}, nil
	}
	ks, ns, ok := strings.Cut(strings.TrimSpace(s), "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return shard{}, fmt.Errorf("bad shard %q: want K/N with 1 <= K <= N, e.g. 2/4", s)
	}
	return shard{K: k, N: n}, nil
}

func (s shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Set and String make shard a flag.Value.
func (s *shard) Set(v string) error {
	p, err := parseShard(v)
	if err != nil {
		return err
	}
	*s = p
	return nil
}

// active reports whether the shard selects a subset.
func (s shard) active() bool { return s.N > 1 }

// owns reports whether property id belongs to the shard.
func (s shard) owns(id string) bool {
	if !s.active() {
		return true
	}
	h := sha256.Sum256([]byte(id))
	return binary.BigEndian.Uint64(h[:8])%uint64(s.N) == uint64(s.K-1)
}

// filter returns the properties the shard owns, in order.
func (s shard) filter(props []*spec.Property) []*spec.Property {
	if !s.active() {
		return props
	}
	var out []*spec.Property
	for _, p := range props {
		if s.owns(p.ID) {
			out = append(out, p)
		}
	}
	return out
}
