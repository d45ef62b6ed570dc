package frontend

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"

	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
)

// The host C compiler's configuration (predefined macros, include
// paths) costs four compiler runs per process (`cc -dM -E`, `cc -v -E`,
// for the target and, under ILP32, the host): 0.1–0.2 s of every
// `reverify check`, the larger part of a trivial task's time (README,
// Performance, "Fixed costs"). It is kept on disk between processes, in
// the user's cache directory ($XDG_CACHE_HOME/reverify or
// ~/.cache/reverify), one JSON file per data model and compiler.
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

// ccCacheDisabled turns the disk cache off (tests of the uncached path).
var ccCacheDisabled = os.Getenv("REVERIFY_NO_CC_CACHE") != ""

// ccCacheKey identifies the compiler and the options of a data model's
// configuration; "" when the compiler cannot be found.
func ccCacheKey(m cfa.DataModel) string {
	var path string
	for _, name := range []string{os.Getenv("CC"), "cc", "gcc"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		return ""
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	st, err := os.Stat(real)
	if err != nil {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "v%d\x00%s\x00%s\x00%s\x00%s\x00%s\x00%d\x00%d", ccCacheVersion, m, runtime.GOOS, runtime.GOARCH,
		os.Getenv("CC"), real, st.Size(), st.ModTime().UnixNano())
	return hex.EncodeToString(h.Sum(nil))[:24]
}

// ccCacheFile is the entry's path, "" when there is no cache directory.
func ccCacheFile(key string) string {
	dir, err := os.UserCacheDir()
	if err != nil || key == "" {
		return ""
	}
	return filepath.Join(dir, "reverify", "ccconfig-"+key+".json")
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
	if file == "" || ccCacheDisabled {
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
	if file == "" || ccCacheDisabled {
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
