package ccparse

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
)

// The host C compiler's configuration (predefined macros, include
// paths) costs four compiler runs per process (`cc -dM -E`, `cc -v -E`,
// for the target and, under ILP32, the host): 0.1–0.2 s of every
// `reverify check`, the larger part of a trivial task's time
// (doc/perf/2026-11-27-fixed-costs.md). It is kept on disk between processes, in
// a directory the caller names (HostCompiler.CacheDir; cmd/reverify
// passes $XDG_CACHE_HOME/reverify or ~/.cache/reverify), one JSON file
// per data model and compiler. The package reads no environment and
// looks up no program itself: the caller resolves the compiler
// (SetHostCompiler); without that call only the in-process cache is used.
//
// An entry is used only when it was made for the same compiler (the
// resolved path of $CC, cc or gcc, with its size and modification time),
// the same GOOS/GOARCH and the same cc/v4 options, and when every
// directory it lists, and /usr/include, still has the modification time
// recorded (installing headers, e.g. gcc-multilib, changes them).
// Anything else, including an unreadable or unwritable cache, falls back
// to asking the compiler; the cache never changes what is parsed.

// ccCacheVersion changes when the entry's format or meaning does.
const ccCacheVersion = 1

// ccCacheEntry is the stored part of a cc.Config; the ABI is rebuilt
// with cc.NewABI and the keywords are cc/v4's defaults (no option that
// changes them is passed).
type ccCacheEntry struct {
	Key                 string
	CC                  string
	Predefined          string
	HostIncludePaths    []string
	HostSysIncludePaths []string
	IncludePaths        []string
	SysIncludePaths     []string
	ABIOS, ABIArch      string
	DirTimes            map[string]time.Time
}

// HostCompiler names the host C compiler whose configuration cc/v4 reads
// (it runs $CC, else cc, else gcc) and the directory of the disk cache of
// that configuration. The caller resolves both from its environment.
type HostCompiler struct {
	// Path is the compiler's executable with symbolic links resolved
	// (what $CC, cc or gcc names on PATH); "" disables the disk cache.
	Path string
	// CC is $CC as set ("" when unset); it is part of the cache key.
	CC string
	// CacheDir is the directory of the cache entries, created when
	// missing; "" disables the disk cache.
	CacheDir string
}

// hostCompiler is the setting of SetHostCompiler, guarded by ccConfigMu.
var hostCompiler HostCompiler

// SetHostCompiler sets the compiler and cache directory that key the disk
// cache of the host configuration for the rest of the process (a
// command-line program calls it once, before translating). Without it,
// or with an empty Path or CacheDir, the configuration is asked of the
// compiler once per process and data model.
func SetHostCompiler(h HostCompiler) {
	ccConfigMu.Lock()
	defer ccConfigMu.Unlock()
	hostCompiler = h
}

// ccCacheKey identifies the compiler and the options of a data model's
// configuration; "" when there is no disk cache or the compiler cannot
// be read. Called with ccConfigMu held.
func ccCacheKey(m cfa.DataModel) string {
	h0 := hostCompiler
	if h0.Path == "" || h0.CacheDir == "" {
		return ""
	}
	st, err := os.Stat(h0.Path)
	if err != nil {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "v%d\x00%s\x00%s\x00%s\x00%s\x00%s\x00%d\x00%d", ccCacheVersion, m, runtime.GOOS, runtime.GOARCH,
		h0.CC, h0.Path, st.Size(), st.ModTime().UnixNano())
	return hex.EncodeToString(h.Sum(nil))[:24]
}

// ccCacheFile is the entry's path, "" when there is no cache directory.
// Called with ccConfigMu held.
func ccCacheFile(key string) string {
	if hostCompiler.CacheDir == "" || key == "" {
		return ""
	}
	return filepath.Join(hostCompiler.CacheDir, "ccconfig-"+key+".json")
}

// dirTimes records the modification times of the directories c lists and
// of /usr/include (missing ones as the zero time).
func dirTimes(c *cc.Config) map[string]time.Time {
	t := map[string]time.Time{}
	for _, group := range [][]string{c.HostIncludePaths, c.HostSysIncludePaths, c.IncludePaths, c.SysIncludePaths, {"/usr/include"}} {
		for _, d := range group {
			if d == "" {
				continue
			}
			var mt time.Time
			if st, err := os.Stat(d); err == nil {
				mt = st.ModTime()
			}
			t[d] = mt
		}
	}
	return t
}

// loadCCConfig returns the cached configuration for key, or nil.
func loadCCConfig(key string) *cc.Config {
	file := ccCacheFile(key)
	if file == "" {
		return nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var e ccCacheEntry
	if err := json.Unmarshal(data, &e); err != nil || e.Key != key {
		return nil
	}
	abi, err := cc.NewABI(e.ABIOS, e.ABIArch)
	if err != nil {
		return nil
	}
	c := &cc.Config{ABI: abi, CC: e.CC, Predefined: e.Predefined, HostIncludePaths: e.HostIncludePaths,
		HostSysIncludePaths: e.HostSysIncludePaths, IncludePaths: e.IncludePaths, SysIncludePaths: e.SysIncludePaths}
	now := dirTimes(c)
	if len(now) != len(e.DirTimes) {
		return nil
	}
	for d, t := range now {
		if rec, ok := e.DirTimes[d]; !ok || !rec.Equal(t) {
			return nil
		}
	}
	return c
}

// storeCCConfig writes c under key (atomically: a temporary file
// renamed); errors are ignored, the cache being only a cache.
func storeCCConfig(key string, c *cc.Config, abiOS, abiArch string) {
	file := ccCacheFile(key)
	if file == "" {
		return
	}
	e := ccCacheEntry{Key: key, CC: c.CC, Predefined: c.Predefined, HostIncludePaths: c.HostIncludePaths,
		HostSysIncludePaths: c.HostSysIncludePaths, IncludePaths: c.IncludePaths, SysIncludePaths: c.SysIncludePaths,
		ABIOS: abiOS, ABIArch: abiArch, DirTimes: dirTimes(c)}
	data, err := json.Marshal(e)
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "ccconfig-*.tmp")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		os.Remove(tmp.Name())
	}
}
