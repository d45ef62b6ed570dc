package diffslice

import (
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa"
)

// ConfigFile is the name of the repository configuration file, read from
// the root of each revision's tree.
const ConfigFile = ".reverify.yml"

// CompileCommandsFile is the compilation database read from the root of
// each revision's tree when present (and no sources are configured).
const CompileCommandsFile = "compile_commands.json"

// SourceConfig says which files of a revision are C sources and how to
// translate them, and (for the head revision) how to verify them. Zero
// fields are unset: LoadRevision fills them from the revision's
// .reverify.yml, then from its compile_commands.json, then from defaults
// (every .c and .i file, no include directories or defines, entry main,
// configuration default, LP64). Fields set by the caller (command-line
// flags) win over the files.
type SourceConfig struct {
	// Sources are globs over repository-relative, slash-separated paths
	// ("src/*.c", "lib/**/*.c"; ** matches any number of directories; a
	// pattern without glob characters that names a directory takes every
	// .c and .i file under it).
	Sources []string `json:"sources,omitempty"`
	// Include are include directories, relative to the repository root.
	Include []string `json:"include,omitempty"`
	// Defines are predefined macros (an empty value defines the macro as 1).
	Defines map[string]string `json:"defines,omitempty"`
	// Entry is the entry function (one; a list of more is rejected).
	Entry string `json:"entry,omitempty"`
	// Config is the engine configuration name.
	Config string `json:"config,omitempty"`
	// Timeout is the time limit per property.
	Timeout time.Duration `json:"timeout,omitempty"`
	// DataModel is "LP64" or "ILP32".
	DataModel string `json:"data_model,omitempty"`
	// CompileCommands names the compilation database inside the tree
	// ("" means compile_commands.json at the root, when present).
	CompileCommands string `json:"compile_commands,omitempty"`
	// AssumePure names functions without a body that the user declares
	// side-effect-free (`assume: {pure: [log_msg, trace]}`): their calls
	// write nothing and return any value (engine.Config.AssumePure); every
	// verdict of a program calling one lists the assumption.
	AssumePure []string `json:"assume_pure,omitempty"`
	// Frontend says who reads the C sources: "cc" (the built-in front
	// end, the default) or "clang" (compiled by clang at -O0 -g and
	// translated from LLVM IR; engine/llvmir, clangir).
	Frontend string `json:"frontend,omitempty"`

	// origin records, per field, where its value came from ("flag",
	// ".reverify.yml", "compile_commands.json", "default"), for messages.
	origin map[string]string
}

// Origin says where the effective value of a field came from: "flag",
// ".reverify.yml", "compile_commands.json" or "default".
func (c *SourceConfig) Origin(field string) string { return c.origin[field] }

func (c *SourceConfig) setOrigin(field, from string) {
	if c.origin == nil {
		c.origin = map[string]string{}
	}
	if _, ok := c.origin[field]; !ok {
		c.origin[field] = from
	}
}

// merge fills the unset fields of c from d, recording origin from.
func (c *SourceConfig) merge(d SourceConfig, from string) {
	if len(c.Sources) == 0 && len(d.Sources) > 0 {
		c.Sources = d.Sources
		c.setOrigin("sources", from)
	}
	if len(c.Include) == 0 && len(d.Include) > 0 {
		c.Include = d.Include
		c.setOrigin("include", from)
	}
	if len(d.Defines) > 0 {
		m := make(map[string]string, len(c.Defines)+len(d.Defines)) // never the caller's map
		for k, v := range c.Defines {
			m[k] = v
		}
		c.Defines = m
		for k, v := range d.Defines {
			if _, ok := c.Defines[k]; !ok {
				c.Defines[k] = v
			}
		}
		c.setOrigin("defines", from)
	}
	if c.Entry == "" && d.Entry != "" {
		c.Entry = d.Entry
		c.setOrigin("entry", from)
	}
	if c.Config == "" && d.Config != "" {
		c.Config = d.Config
		c.setOrigin("config", from)
	}
	if c.Timeout == 0 && d.Timeout != 0 {
		c.Timeout = d.Timeout
		c.setOrigin("timeout", from)
	}
	if c.DataModel == "" && d.DataModel != "" {
		c.DataModel = d.DataModel
		c.setOrigin("data_model", from)
	}
	if c.Frontend == "" && d.Frontend != "" {
		c.Frontend = d.Frontend
		c.setOrigin("frontend", from)
	}
	if c.CompileCommands == "" && d.CompileCommands != "" {
		c.CompileCommands = d.CompileCommands
		c.setOrigin("compile_commands", from)
	}
	if len(c.AssumePure) == 0 && len(d.AssumePure) > 0 {
		c.AssumePure = d.AssumePure
		c.setOrigin("assume", from)
	}
}

// flagged marks every field set in c as coming from the command line.
func (c *SourceConfig) flagged() {
	for field, set := range map[string]bool{
		"sources": len(c.Sources) > 0, "include": len(c.Include) > 0, "defines": len(c.Defines) > 0,
		"entry": c.Entry != "", "config": c.Config != "", "timeout": c.Timeout != 0,
		"data_model": c.DataModel != "", "compile_commands": c.CompileCommands != "",
		"assume": len(c.AssumePure) > 0, "frontend": c.Frontend != "",
	} {
		if set {
			c.setOrigin(field, "flag")
		}
	}
}

// defaults fills what is still unset.
func (c *SourceConfig) defaults() {
	if len(c.Sources) == 0 {
		c.Sources = []string{"**/*.c", "**/*.i"}
		c.setOrigin("sources", "default")
	}
	if c.Entry == "" {
		c.Entry = "main"
		c.setOrigin("entry", "default")
	}
	if c.Config == "" {
		c.Config = "default"
		c.setOrigin("config", "default")
	}
	if c.DataModel == "" {
		c.DataModel = "LP64"
		c.setOrigin("data_model", "default")
	}
	if c.Frontend == "" {
		c.Frontend = "cc"
		c.setOrigin("frontend", "default")
	}
}

// validate checks what the files cannot check field by field.
func (c *SourceConfig) validate() error {
	for _, g := range c.Sources {
		if err := checkGlob(g); err != nil {
			return fmt.Errorf("sources: %v", err)
		}
	}
	if c.Config != "" && engine.ConfigDoc(c.Config) == "" {
		return fmt.Errorf("config: unknown configuration %q (known: %s)", c.Config, strings.Join(engine.ConfigNames(), ", "))
	}
	if c.DataModel != "" {
		if _, err := cfa.ParseDataModel(c.DataModel); err != nil {
			return fmt.Errorf("data_model: %v", err)
		}
	}
	if c.Timeout < 0 {
		return fmt.Errorf("timeout: negative duration %v", c.Timeout)
	}
	if c.Frontend != "" && c.Frontend != "cc" && c.Frontend != "clang" {
		return fmt.Errorf("frontend: unknown front end %q (want cc or clang)", c.Frontend)
	}
	return nil
}

// model returns the data model (LP64 when unset).
func (c *SourceConfig) model() cfa.DataModel {
	m, err := cfa.ParseDataModel(c.DataModel)
	if err != nil {
		return cfa.LP64
	}
	return m
}

// yamlKeys are the keys .reverify.yml accepts.
var yamlKeys = []string{"sources", "include", "defines", "entry", "config", "timeout", "data_model", "compile_commands", "assume", "frontend"}

// assumeKeys are the keys of .reverify.yml's assume mapping.
var assumeKeys = []string{"pure"}

// ParseConfig parses the text of a .reverify.yml. name is the file's name
// for messages. Every error is one line naming the file and, where known,
// the line and the key: ".reverify.yml:4: timeout: invalid duration "6x"".
func ParseConfig(name string, data []byte) (SourceConfig, error) {
	var c SourceConfig
	fail := func(line int, format string, a ...any) (SourceConfig, error) {
		msg := fmt.Sprintf(format, a...)
		msg = strings.Join(strings.Fields(strings.ReplaceAll(msg, "\n", " ")), " ")
		if line > 0 {
			return SourceConfig{}, fmt.Errorf("%s:%d: %s", name, line, msg)
		}
		return SourceConfig{}, fmt.Errorf("%s: %s", name, msg)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		line := 0
		if n, rest, ok := cutLinePrefix(msg); ok {
			line, msg = n, rest
		}
		return fail(line, "%s", msg)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return c, nil // empty file
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return c, nil
	}
	if root.Kind != yaml.MappingNode {
		return fail(root.Line, "want a mapping of keys (%s), found a %s", strings.Join(yamlKeys, ", "), kindName(root))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		key := k.Value
		if seen[key] {
			return fail(k.Line, "%s: duplicate key", key)
		}
		seen[key] = true
		switch key {
		case "sources", "include":
			list, err := stringList(v)
			if err != nil {
				return fail(v.Line, "%s: %v", key, err)
			}
			if key == "sources" {
				for _, g := range list {
					if err := checkGlob(g); err != nil {
						return fail(v.Line, "sources: %v", err)
					}
				}
				c.Sources = list
			} else {
				c.Include = list
			}
		case "defines":
			if v.Kind != yaml.MappingNode {
				if v.Kind == yaml.SequenceNode {
					// Also accept [NAME, NAME=value] like -D flags.
					list, err := stringList(v)
					if err != nil {
						return fail(v.Line, "defines: %v", err)
					}
					c.Defines = map[string]string{}
					for _, d := range list {
						n, val, _ := strings.Cut(d, "=")
						if n == "" {
							return fail(v.Line, "defines: empty macro name in %q", d)
						}
						c.Defines[n] = val
					}
					continue
				}
				return fail(v.Line, "defines: want a mapping NAME: value, found a %s", kindName(v))
			}
			c.Defines = map[string]string{}
			for j := 0; j+1 < len(v.Content); j += 2 {
				n, val := v.Content[j], v.Content[j+1]
				if n.Kind != yaml.ScalarNode || n.Value == "" || strings.ContainsAny(n.Value, " \t\n=") {
					return fail(n.Line, "defines: bad macro name %q", n.Value)
				}
				if val.Kind != yaml.ScalarNode {
					return fail(val.Line, "defines: %s: want a scalar value, found a %s", n.Value, kindName(val))
				}
				s := val.Value
				if val.Tag == "!!null" {
					s = ""
				}
				if strings.Contains(s, "\n") {
					return fail(val.Line, "defines: %s: value spans lines", n.Value)
				}
				c.Defines[n.Value] = s
			}
		case "entry":
			list, err := stringList(v)
			if err != nil {
				return fail(v.Line, "entry: %v", err)
			}
			switch {
			case len(list) == 0:
				return fail(v.Line, "entry: no entry function")
			case len(list) > 1:
				return fail(v.Line, "entry: %d entry functions (%s); only one is supported", len(list), strings.Join(list, ", "))
			}
			if !isIdent(list[0]) {
				return fail(v.Line, "entry: %q is not a C identifier", list[0])
			}
			c.Entry = list[0]
		case "frontend":
			if v.Kind != yaml.ScalarNode || v.Value != "cc" && v.Value != "clang" {
				return fail(v.Line, "frontend: want cc or clang, found %q", v.Value)
			}
			c.Frontend = v.Value
		case "config":
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				return fail(v.Line, "config: want a configuration name (%s)", strings.Join(engine.ConfigNames(), ", "))
			}
			if engine.ConfigDoc(v.Value) == "" {
				return fail(v.Line, "config: unknown configuration %q (known: %s)", v.Value, strings.Join(engine.ConfigNames(), ", "))
			}
			c.Config = v.Value
		case "timeout":
			if v.Kind != yaml.ScalarNode {
				return fail(v.Line, "timeout: want a duration like 60s, found a %s", kindName(v))
			}
			d, err := time.ParseDuration(v.Value)
			if err != nil {
				// A bare number means seconds.
				var secs float64
				if _, e2 := fmt.Sscanf(v.Value, "%g", &secs); e2 != nil || fmt.Sprint(secs) != strings.TrimSpace(v.Value) {
					return fail(v.Line, "timeout: invalid duration %q (want e.g. 60s or 2m)", v.Value)
				}
				d = time.Duration(secs * float64(time.Second))
			}
			if d <= 0 {
				return fail(v.Line, "timeout: must be positive, got %q", v.Value)
			}
			c.Timeout = d
		case "data_model":
			if _, err := cfa.ParseDataModel(v.Value); v.Kind != yaml.ScalarNode || err != nil {
				return fail(v.Line, "data_model: want ILP32 or LP64, got %q", v.Value)
			}
			c.DataModel = strings.ToUpper(v.Value)
		case "compile_commands":
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				return fail(v.Line, "compile_commands: want a path")
			}
			c.CompileCommands = v.Value
		case "assume":
			if v.Kind != yaml.MappingNode {
				return fail(v.Line, "assume: want a mapping (%s), found a %s", strings.Join(assumeKeys, ", "), kindName(v))
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				ak, av := v.Content[j], v.Content[j+1]
				if ak.Value != "pure" {
					return fail(ak.Line, "assume: unknown key %q (known: %s)", ak.Value, strings.Join(assumeKeys, ", "))
				}
				list, err := stringList(av)
				if err != nil {
					return fail(av.Line, "assume: pure: %v", err)
				}
				for _, f := range list {
					if !isIdent(f) {
						return fail(av.Line, "assume: pure: %q is not a C identifier", f)
					}
				}
				c.AssumePure = list
			}
		default:
			return fail(k.Line, "unknown key %q (known: %s)", key, strings.Join(yamlKeys, ", "))
		}
	}
	return c, nil
}

// cutLinePrefix splits "line 3: msg" into 3 and "msg".
func cutLinePrefix(s string) (int, string, bool) {
	var n int
	rest, ok := strings.CutPrefix(s, "line ")
	if !ok {
		return 0, s, false
	}
	i := strings.IndexByte(rest, ':')
	if i < 0 {
		return 0, s, false
	}
	if _, err := fmt.Sscanf(rest[:i], "%d", &n); err != nil {
		return 0, s, false
	}
	return n, strings.TrimSpace(rest[i+1:]), true
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	case yaml.ScalarNode:
		return "scalar"
	case yaml.AliasNode:
		return "alias"
	}
	return "document"
}

// stringList accepts a scalar or a list of scalars.
func stringList(v *yaml.Node) ([]string, error) {
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Tag == "!!null" || v.Value == "" {
			return nil, fmt.Errorf("empty value")
		}
		return []string{v.Value}, nil
	case yaml.SequenceNode:
		var out []string
		for _, x := range v.Content {
			if x.Kind != yaml.ScalarNode || x.Value == "" {
				return nil, fmt.Errorf("line %d: want a non-empty string, found a %s", x.Line, kindName(x))
			}
			out = append(out, x.Value)
		}
		return out, nil
	}
	return nil, fmt.Errorf("want a string or a list of strings, found a %s", kindName(v))
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// checkGlob reports a malformed glob.
func checkGlob(g string) error {
	if g == "" {
		return fmt.Errorf("empty glob")
	}
	if strings.HasPrefix(g, "/") {
		return fmt.Errorf("glob %q must be relative to the repository root", g)
	}
	for _, seg := range strings.Split(g, "/") {
		if seg == "**" {
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("bad glob %q: %v", g, err)
		}
	}
	return nil
}

// matchGlob matches a slash-separated path against a glob whose
// segments are path.Match patterns or "**" (any number of segments).
// SetOrigin records where a field's value came from (for messages: "the
// Action input paths"), unless an origin is recorded already.
func (c *SourceConfig) SetOrigin(field, from string) { c.setOrigin(field, from) }

// sourceMatch reports whether a source pattern takes a file: the glob
// matches it, or the pattern names a directory (no glob characters; "."
// is the repository) and the file lies under it — a directory means
// every C file under it.
func sourceMatch(pattern, name string) bool {
	if matchGlob(pattern, name) {
		return true
	}
	if strings.ContainsAny(pattern, "*?[") {
		return false
	}
	d := path.Clean(strings.TrimPrefix(pattern, "./"))
	return d == "." || strings.HasPrefix(name, d+"/")
}

func matchGlob(glob, name string) bool {
	return matchSegs(strings.Split(glob, "/"), strings.Split(name, "/"))
}

func matchSegs(g, n []string) bool {
	for len(g) > 0 {
		if g[0] == "**" {
			for i := 0; i <= len(n); i++ {
				if matchSegs(g[1:], n[i:]) {
					return true
				}
			}
			return false
		}
		if len(n) == 0 {
			return false
		}
		if ok, _ := path.Match(g[0], n[0]); !ok {
			return false
		}
		g, n = g[1:], n[1:]
	}
	return len(n) == 0
}

// compileCommand is one entry of a compilation database.
type compileCommand struct {
	Directory string   `json:"directory"`
	File      string   `json:"file"`
	Arguments []string `json:"arguments"`
	Command   string   `json:"command"`
}

// parseCompileCommands reads a compilation database into a SourceConfig:
// the listed files (as exact "globs"), and the union of their -I
// directories and -D macros (the front end takes one configuration for
// the whole program; a macro defined differently by two entries keeps
// the first definition). Absolute paths are made relative to root (the
// directory the database was generated in, as far as it can be told:
// the repository's own directory on disk, else the longest suffix of the
// path that names a file of the tree).
func parseCompileCommands(name string, data []byte, root string, tree map[string]bool) (SourceConfig, error) {
	var cmds []compileCommand
	if err := json.Unmarshal(data, &cmds); err != nil {
		return SourceConfig{}, fmt.Errorf("%s: %s", name, strings.ReplaceAll(err.Error(), "\n", " "))
	}
	var c SourceConfig
	seenFile := map[string]bool{}
	seenInc := map[string]bool{}
	rel := func(dir, p string, wantFile bool) (string, bool) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		p = filepath.Clean(p)
		if root != "" {
			if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
				return filepath.ToSlash(r), true
			}
		}
		// Longest suffix naming something in the tree.
		parts := strings.Split(filepath.ToSlash(p), "/")
		for i := 1; i < len(parts); i++ {
			s := strings.Join(parts[i:], "/")
			if wantFile && tree[s] {
				return s, true
			}
			if !wantFile && tree[s+"/"] {
				return s, true
			}
		}
		return "", false
	}
	for i, cmd := range cmds {
		if cmd.File == "" {
			return SourceConfig{}, fmt.Errorf("%s: entry %d has no \"file\"", name, i+1)
		}
		args := cmd.Arguments
		if len(args) == 0 && cmd.Command != "" {
			var err error
			if args, err = splitCommand(cmd.Command); err != nil {
				return SourceConfig{}, fmt.Errorf("%s: entry %d: %v", name, i+1, err)
			}
		}
		f, ok := rel(cmd.Directory, cmd.File, true)
		if !ok {
			continue // outside the repository (generated or system files)
		}
		if !seenFile[f] {
			seenFile[f] = true
			c.Sources = append(c.Sources, f)
		}
		for j := 0; j < len(args); j++ {
			a := args[j]
			var inc, def string
			switch {
			case a == "-I" && j+1 < len(args):
				j++
				inc = args[j]
			case strings.HasPrefix(a, "-I"):
				inc = a[2:]
			case a == "-D" && j+1 < len(args):
				j++
				def = args[j]
			case strings.HasPrefix(a, "-D"):
				def = a[2:]
			}
			if inc != "" {
				if d, ok := rel(cmd.Directory, inc, false); ok && !seenInc[d] {
					seenInc[d] = true
					c.Include = append(c.Include, d)
				}
			}
			if def != "" {
				n, v, hasVal := strings.Cut(def, "=")
				if !hasVal {
					v = "1"
				}
				if c.Defines == nil {
					c.Defines = map[string]string{}
				}
				if _, dup := c.Defines[n]; !dup {
					c.Defines[n] = v
				}
			}
		}
	}
	sort.Strings(c.Sources)
	return c, nil
}

// splitCommand splits a shell command line (single and double quotes,
// backslash escapes) into words.
func splitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case ch == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated quote in command")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case ch == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated quote in command")
			}
			inWord = true
		case ch == ' ' || ch == '\t' || ch == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
