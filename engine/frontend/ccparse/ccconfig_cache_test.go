package ccparse

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
	"time"

	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
)

// TestCCConfigCache: a stored configuration loads back equal to the one
// the compiler gave (ABI included), and is refused under another key or
// when a directory it lists has a different modification time.
func TestCCConfigCache(t *testing.T) {
	useTestCompiler(t, t.TempDir())
	key := ccCacheKey(cfa.LP64)
	if key == "" {
		t.Skip("no host C compiler")
	}
	if loadCCConfig(key) != nil {
		t.Fatal("empty cache gave a configuration")
	}
	goarch := runtime.GOARCH
	if goarch != "amd64" && goarch != "arm64" {
		goarch = "amd64"
	}
	want, err := cc.NewConfig("linux", goarch)
	if err != nil {
		t.Skip(err)
	}
	storeCCConfig(key, want, "linux", goarch)
	got := loadCCConfig(key)
	if got == nil {
		t.Fatal("stored configuration not loaded")
	}
	if !reflect.DeepEqual(got.ABI, want.ABI) || got.CC != want.CC || got.Predefined != want.Predefined ||
		!reflect.DeepEqual(got.IncludePaths, want.IncludePaths) || !reflect.DeepEqual(got.SysIncludePaths, want.SysIncludePaths) ||
		!reflect.DeepEqual(got.HostIncludePaths, want.HostIncludePaths) || !reflect.DeepEqual(got.HostSysIncludePaths, want.HostSysIncludePaths) {
		t.Errorf("loaded configuration differs from the compiler's")
	}
	if loadCCConfig(key+"x") != nil {
		t.Error("loaded under another key")
	}

	// A directory whose modification time changed invalidates the entry.
	file := ccCacheFile(key)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var e ccCacheEntry
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	e.DirTimes["/usr/include"] = e.DirTimes["/usr/include"].Add(time.Second)
	data, _ = json.Marshal(e)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if loadCCConfig(key) != nil {
		t.Error("loaded although /usr/include changed")
	}
	// A corrupt file is ignored.
	if err := os.WriteFile(file, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if loadCCConfig(key) != nil {
		t.Error("loaded a corrupt entry")
	}

	// Without a cache directory (or a compiler) there is no disk cache.
	SetHostCompiler(HostCompiler{Path: hostCompiler.Path})
	if ccCacheKey(cfa.LP64) != "" {
		t.Error("a cache key without a cache directory")
	}
	SetHostCompiler(HostCompiler{CacheDir: t.TempDir()})
	if ccCacheKey(cfa.LP64) != "" {
		t.Error("a cache key without a compiler")
	}
}

// useTestCompiler sets the host compiler as cmd/reverify resolves it
// ($CC, cc or gcc on PATH) with the cache in dir ("" disables it) for
// the rest of the test, and restores the previous setting after it.
func useTestCompiler(tb testing.TB, dir string) {
	tb.Helper()
	ccConfigMu.Lock()
	saved := hostCompiler
	ccConfigMu.Unlock()
	tb.Cleanup(func() { SetHostCompiler(saved) })
	h := HostCompiler{CC: os.Getenv("CC"), CacheDir: dir}
	for _, name := range []string{h.CC, "cc", "gcc"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			if real, err := filepath.EvalSymlinks(p); err == nil {
				h.Path = real
			}
			break
		}
	}
	SetHostCompiler(h)
}

// BenchmarkCCConfig is the fixed cost the disk cache removes from every
// process: the host compiler's configuration for ILP32 (SV-COMP's data
// model) asked of the compiler (four cc runs) against read from the
// cache, the in-process cache cleared before each operation.
//
//	go test -run '^$' -bench CCConfig ./engine/frontend/
func BenchmarkCCConfig(b *testing.B) {
	dir := b.TempDir()
	for _, mode := range []struct {
		name     string
		disabled bool
	}{{"compiler", true}, {"disk-cache", false}} {
		b.Run(mode.name, func(b *testing.B) {
			if mode.disabled {
				useTestCompiler(b, "")
			} else {
				useTestCompiler(b, dir)
			}
			for b.Loop() {
				ccConfigMu.Lock()
				delete(ccConfigCache, cfa.ILP32)
				ccConfigMu.Unlock()
				if _, err := Config(cfa.ILP32); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
