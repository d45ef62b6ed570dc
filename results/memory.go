package results

import (
	"fmt"
	"regexp"
	"strings"
)

// The memory-safety properties (SV-COMP's valid-memsafety.prp and
// valid-memcleanup.prp subproperties), as PropertyReport.Violated names
// them.
const (
	ValidDeref      = "valid-deref"
	ValidFree       = "valid-free"
	ValidMemtrack   = "valid-memtrack"
	ValidMemcleanup = "valid-memcleanup"
)

// MemoryKind returns the memory-safety property p checks: Violated when
// set, else the one subproperty its expression names ("G valid-deref",
// the expression of a per-site property or of valid-memtrack), else ""
// (an assertion, or a whole-program property of several subproperties
// that was not violated).
func (p *PropertyReport) MemoryKind() string {
	if p.Violated != "" {
		return p.Violated
	}
	if sub, ok := strings.CutPrefix(p.Expression, "G "); ok && strings.HasPrefix(sub, "valid-") && !strings.Contains(sub, " ") {
		return sub
	}
	return ""
}

// MemoryViolation is what a memory-safety violation did, as the
// analysis that found it records it (engine/analysis/value): typed, so
// that reports never read it from the reason's text. Its fields are
// those the problem has; the rest are zero.
type MemoryViolation struct {
	// Problem is one of UseAfterFree … NotFreed.
	Problem string `json:"problem"`
	// Object is the analysis's name of the object: a heap block
	// ("heap7#0"), a variable, or "" when none is named.
	Object string `json:"object,omitempty"`
	// AllocFile and AllocLine are where the heap block Object is
	// allocated (the allocating call's position; "", 0 when Object is no
	// heap block, or a block of an abstracted list), AllocFunc the
	// function called ("malloc").
	AllocFile string `json:"alloc_file,omitempty"`
	AllocLine int    `json:"alloc_line,omitempty"`
	AllocFunc string `json:"alloc_func,omitempty"`
	// Access is the accessing expression ("*p", "p->next").
	Access string `json:"access,omitempty"`
	// Address is the integer freed as a pointer (InvalidFree of a
	// non-pointer).
	Address uint64 `json:"address,omitempty"`
	// Bytes, Offset and Size are the width of an out-of-bounds access,
	// its offset in the object (or the offset of an invalid free) and
	// the object's size in bytes (0: not known).
	Bytes  int64 `json:"bytes,omitempty"`
	Offset int64 `json:"offset,omitempty"`
	Size   int64 `json:"size,omitempty"`
	// Func is the library function that reads past the end ("strlen").
	Func string `json:"func,omitempty"`
	// Detail is the analysis's description of the violation in words,
	// without its position ("access to heap7#0 after free by *p").
	Detail string `json:"detail,omitempty"`
}

// Problems a memory-safety violation can be (MemoryFacts.Problem).
const (
	UseAfterFree   = "use-after-free"   // an access to a freed heap block
	DeadStack      = "dead-stack"       // an access to a local after its lifetime
	InvalidObject  = "invalid-object"   // an access through a pointer to no object
	NullDeref      = "null-dereference" // an access through NULL
	OutOfBounds    = "out-of-bounds"    // an access outside its object
	DoubleFree     = "double-free"      // free of a block already freed
	InvalidFree    = "invalid-free"     // free of no heap block, or not its start
	Leak           = "leak"             // a block no longer reachable, not freed
	NotFreed       = "not-freed"        // a block still allocated at the end
	OtherViolation = "other"            // a detail of no known form
)

// Site is a step of a counterexample that allocates or frees memory: its
// repository-relative file and 1-based line, and the function it calls
// ("malloc", "free").
type Site struct {
	File string
	Line int
	Func string
}

func (s Site) String() string { return fmt.Sprintf("%s:%d", s.File, s.Line) }

// MemoryFacts is what a memory-safety violation (a FALSE memory-safety
// property) did to which block, as far as the reason and the
// counterexample of results.json say.
type MemoryFacts struct {
	// Kind is the violated property (valid-deref, valid-free,
	// valid-memtrack, valid-memcleanup).
	Kind string
	// Problem is one of UseAfterFree … OtherViolation.
	Problem string
	// Access is the expression that accesses memory, as the engine
	// printed it ("*p", "p->next", "a[i]"); empty if not given.
	Access string
	// Pointer is the pointer that Access dereferences ("p"; Access
	// itself when it has no simpler form); empty if not given.
	Pointer string
	// Object is the engine's name of the object involved: a heap block
	// ("heap7#0"), a variable, or "" when none is named.
	Object string
	// Alloc is where the heap block Object is allocated: the typed
	// fact's allocation, else the counterexample's allocation when it
	// has exactly one allocation site (file and line); nil otherwise.
	// AllocSites are all the counterexample's allocation sites
	// (file:line, distinct, in order).
	Alloc      *Site
	AllocSites []Site
	// Frees are the calls of free on the counterexample before the
	// violating step, in order (the violating step itself for a
	// valid-free violation is not among them).
	Frees []Site
	// Bytes, Offset and Size are the width of an out-of-bounds access,
	// its offset in the object and the object's size in bytes (Size 0:
	// not given).
	Bytes, Offset, Size int
	// Func is the library function that reads past the end ("strlen"),
	// for that form of OutOfBounds.
	Func string
	// Detail is the engine's description, with heap block names
	// replaced by where they were allocated (HeapNames).
	Detail string
}

var (
	heapNameRE = regexp.MustCompile(`\bheap\d+#\d+`)
	allocRE    = regexp.MustCompile(`^(?:[^=]*= *)?(malloc|calloc|alloca|__builtin_alloca)\(`)
	freeRE     = regexp.MustCompile(`^free\(`)
)

// Memory returns the facts of p's memory-safety violation, or nil when
// p is not a FALSE memory-safety property. The problem, object, access
// and sizes are the analysis's typed fact (p.Memory), Detail its
// description; without one (a results.json of an older version) the
// problem is OtherViolation without a detail: the reason's text is never
// parsed. root makes the sites' files repository-relative
// (RepoPath).
//
// The engine names heap blocks by allocation site and number
// ("heap7#0"); the fact gives the allocating call's position. Without
// it the block is placed at the counterexample's allocation (Alloc) only
// when the counterexample allocates at exactly one file and line, so
// that the place cannot be wrong.
func Memory(p *PropertyReport, root string) *MemoryFacts {
	kind := p.MemoryKind()
	if p.Verdict != False || kind == "" {
		return nil
	}
	m := &MemoryFacts{Kind: kind, Problem: OtherViolation}
	last := len(p.Steps) - 1
	seen := map[string]bool{}
	for i, s := range p.Steps {
		file := s.File
		if file == "" {
			file = p.File
		}
		site := Site{File: RepoPath(file, root), Line: s.Line}
		if g := allocRE.FindStringSubmatch(s.Op); g != nil && s.Line > 0 {
			site.Func = g[1]
			if !seen[site.String()] {
				seen[site.String()] = true
				m.AllocSites = append(m.AllocSites, site)
			}
		}
		if freeRE.MatchString(s.Op) && s.Line > 0 && (i < last || kind != ValidFree) {
			site.Func = "free"
			m.Frees = append(m.Frees, site)
		}
	}
	if len(m.AllocSites) == 1 {
		m.Alloc = &m.AllocSites[0]
	}
	detail := ""
	if f := p.Memory; f != nil {
		detail = f.Detail
		m.Problem = f.Problem
		m.Access, m.Object, m.Func = f.Access, f.Object, f.Func
		m.Bytes, m.Offset, m.Size = int(f.Bytes), int(f.Offset), int(f.Size)
		if f.Problem == InvalidFree && f.Object == "" {
			m.Object = fmt.Sprintf("%#x", f.Address) // free of a non-pointer
		}
		if f.AllocFile != "" {
			// where the analysis allocated the block: exact, whatever the
			// counterexample's other allocations
			m.Alloc = &Site{File: RepoPath(f.AllocFile, root), Line: f.AllocLine, Func: f.AllocFunc}
		}
	}
	m.Pointer = pointerOf(m.Access)
	m.Detail = m.HeapNames(detail)
	return m
}

// pointerOf returns the pointer an access expression dereferences:
// "*p" → "p", "*(p + 1)" → "p + 1", "p->next" → "p", "a[i]" → "a";
// any other expression is returned as it is.
func pointerOf(access string) string {
	a := strings.TrimSpace(access)
	switch {
	case strings.HasPrefix(a, "*"):
		a = strings.TrimSpace(a[1:])
		if strings.HasPrefix(a, "(") && strings.HasSuffix(a, ")") {
			a = a[1 : len(a)-1]
		}
		return a
	case strings.Contains(a, "->"):
		return a[:strings.Index(a, "->")]
	case strings.Contains(a, "[") && strings.HasSuffix(a, "]"):
		return a[:strings.Index(a, "[")]
	}
	return a
}

// IsHeap reports whether the engine's object name is a heap block
// ("heap7#0").
func IsHeap(object string) bool {
	return heapNameRE.MatchString(object) && heapNameRE.FindString(object) == object
}

// Block describes the object of the violation in words: "the block
// allocated at f.c:4 by malloc" (Alloc known), "a heap block allocated
// at f.c:4 or f.c:9" (several allocation sites), "a heap block", or,
// for a variable, its name; "" when no object is named.
func (m *MemoryFacts) Block() string {
	switch {
	case m.Object == "":
		return ""
	case !IsHeap(m.Object):
		return m.Object
	case m.Alloc != nil:
		return fmt.Sprintf("the block allocated at %s by %s", m.Alloc, m.Alloc.Func)
	case len(m.AllocSites) > 1:
		var at []string
		for _, s := range m.AllocSites {
			at = append(at, s.String())
		}
		return "a heap block allocated at " + strings.Join(at[:len(at)-1], ", ") + " or " + at[len(at)-1]
	}
	return "a heap block"
}

// HeapNames replaces the engine's heap block names in text ("heap7#0")
// by where the block was allocated ("the block allocated at f.c:4 by
// malloc"; "a heap block" when the counterexample does not tell).
func (m *MemoryFacts) HeapNames(text string) string {
	return heapNameRE.ReplaceAllStringFunc(text, func(string) string {
		if m.Alloc != nil {
			return fmt.Sprintf("the block allocated at %s by %s", m.Alloc, m.Alloc.Func)
		}
		return "a heap block"
	})
}

// ReadableReason returns p's reason with the engine's heap block names replaced
// by where the blocks were allocated (MemoryFacts.HeapNames): the
// reason as it is for anything but a FALSE memory-safety property.
func (p *PropertyReport) ReadableReason(root string) string {
	if m := Memory(p, root); m != nil {
		return m.HeapNames(p.Reason)
	}
	return p.Reason
}

// Sites renders sites as "f.c:12" or "f.c:12, f.c:20 and g.c:3".
func Sites(sites []Site) string { return MemoryFormat{}.sites(sites) }

// IsMemoryStep reports whether a counterexample step allocates or frees
// memory (a call of malloc, calloc, alloca or free): the steps a
// memory-safety counterexample keeps in view (ReadableTrace).
func IsMemoryStep(s StepJSON) bool { return allocRE.MatchString(s.Op) || freeRE.MatchString(s.Op) }

// MemoryFormat says how MemoryFacts' sentences render code, places and
// the engine's own words: Code wraps an expression or function name
// (Markdown: <code>…</code>; plain text: as it is), At a site (Markdown:
// a link), Text escapes free text (Markdown: markdown.Escape). Nil
// functions render as plain text.
type MemoryFormat struct {
	Code func(string) string
	At   func(Site) string
	Text func(string) string
}

func (f MemoryFormat) text(s string) string {
	if f.Text == nil {
		return s
	}
	return f.Text(s)
}

func (f MemoryFormat) code(s string) string {
	if f.Code == nil {
		return s
	}
	return f.Code(s)
}

func (f MemoryFormat) at(s Site) string {
	if f.At == nil {
		return s.String()
	}
	return f.At(s)
}

func (f MemoryFormat) sites(ss []Site) string {
	var at []string
	for _, s := range ss {
		at = append(at, f.at(s))
	}
	switch len(at) {
	case 0:
		return ""
	case 1:
		return at[0]
	}
	return strings.Join(at[:len(at)-1], ", ") + " and " + at[len(at)-1]
}

// block is Block in the format: "the block allocated at f.c:4 by
// malloc".
func (m *MemoryFacts) block(f MemoryFormat) string {
	switch {
	case m.Object == "":
		return ""
	case !IsHeap(m.Object):
		return f.code(m.Object)
	case m.Alloc != nil:
		return "the block allocated at " + f.at(*m.Alloc) + " by " + f.code(m.Alloc.Func)
	case len(m.AllocSites) > 1:
		var at []string
		for _, s := range m.AllocSites {
			at = append(at, f.at(s))
		}
		return "a heap block allocated at " + strings.Join(at[:len(at)-1], ", ") + " or " + at[len(at)-1]
	}
	return "a heap block"
}

// Clause says what the violation lets happen as a subject and a
// predicate in the base form, so that callers write "SUBJECT can
// PREDICATE" or "this change lets SUBJECT PREDICATE":
//
//	p | be dereferenced after free (the block allocated at f.c:4 by malloc, freed at f.c:12)
//	the block allocated at f.c:4 by malloc | be freed twice (at f.c:12, again at f.c:20)
//	a[2] | access 4 bytes at offset 8 of the block allocated at f.c:3 by malloc, which has 8 bytes: out of bounds
//	the block allocated at f.c:4 by malloc | become unreachable without being freed (a memory leak)
//
// at is the violating step's place (the property's file and line; a
// zero Site when unknown).
func (m *MemoryFacts) Clause(f MemoryFormat, at Site) (subject, predicate string) {
	ptr := f.code(m.Pointer)
	blk := m.block(f)
	if blk == "" {
		blk = "a block"
	}
	switch m.Problem {
	case UseAfterFree:
		var in []string
		if m.Object != "" {
			in = append(in, m.block(f))
		}
		switch len(m.Frees) {
		case 0:
		case 1:
			in = append(in, "freed at "+f.at(m.Frees[0]))
		default:
			in = append(in, f.code("free")+" called at "+f.sites(m.Frees))
		}
		paren := ""
		if len(in) > 0 {
			paren = " (" + strings.Join(in, ", ") + ")"
		}
		if m.Pointer == "" {
			return "a freed block", "be accessed" + paren
		}
		return ptr, "be dereferenced after " + f.code("free") + paren
	case DeadStack:
		if m.Pointer == "" {
			return "a local variable", "be accessed after its lifetime ended"
		}
		return ptr, "be dereferenced after the local variable it points to went out of scope"
	case InvalidObject:
		if m.Pointer == "" {
			return "a pointer to no object", "be dereferenced"
		}
		return ptr, "be dereferenced while it points to no valid object"
	case NullDeref:
		if m.Pointer == "" {
			return "a NULL pointer", "be dereferenced"
		}
		return ptr, "be dereferenced while it is NULL"
	case OutOfBounds:
		size := ""
		if m.Size > 0 {
			size = fmt.Sprintf(", which has %d %s", m.Size, pluralS(m.Size, "byte", "bytes"))
		}
		if m.Func != "" {
			return f.code(m.Func), "read past the end of " + blk + size
		}
		subj := f.code(m.Access)
		if m.Access == "" {
			subj = "an access"
		}
		return subj, fmt.Sprintf("access %d %s at offset %d of %s%s: out of bounds", m.Bytes, pluralS(m.Bytes, "byte", "bytes"), m.Offset, blk, size)
	case DoubleFree:
		var in []string
		if len(m.Frees) > 0 {
			in = append(in, "first at "+f.sites(m.Frees))
		}
		if at.Line > 0 {
			in = append(in, "again at "+f.at(at))
		}
		paren := ""
		if len(in) > 0 {
			paren = " (" + strings.Join(in, ", ") + ")"
		}
		return blk, "be freed twice" + paren
	case InvalidFree:
		switch {
		case IsHeap(m.Object):
			return f.code("free"), fmt.Sprintf("be called with a pointer to offset %d of %s, not to its start", m.Offset, blk)
		case strings.HasPrefix(m.Object, "0x") || strings.HasPrefix(m.Object, "0"):
			return f.code("free"), "be called with " + f.code(m.Object) + ", which points to no object"
		}
		return f.code("free"), "be called with a pointer to " + blk + ", which is not a heap block"
	case Leak:
		return blk, "become unreachable without being freed (a memory leak)"
	case NotFreed:
		return blk, "still be allocated when the program ends"
	}
	d := m.Detail
	if d == "" {
		d = "violated"
	}
	return "the memory-safety property " + f.code(m.Kind), "fail: " + f.text(d)
}

// Noun names the violation in a few words, e.g. "use after free of
// p", "NULL dereference of p->next", "double free", "memory leak".
func (m *MemoryFacts) Noun(f MemoryFormat) string {
	of := func(s string) string {
		if s == "" {
			return ""
		}
		return " of " + f.code(s)
	}
	switch m.Problem {
	case UseAfterFree:
		return "use after free" + of(m.Pointer)
	case DeadStack:
		return "use of a dead local variable" + of(m.Pointer)
	case InvalidObject:
		return "invalid dereference" + of(m.Pointer)
	case NullDeref:
		return "NULL dereference" + of(m.Pointer)
	case OutOfBounds:
		if m.Func != "" {
			return "out-of-bounds read by " + f.code(m.Func)
		}
		return "out-of-bounds access" + func() string {
			if m.Access == "" {
				return ""
			}
			return " " + f.code(m.Access)
		}()
	case DoubleFree:
		return "double free"
	case InvalidFree:
		return "invalid free"
	case Leak:
		return "memory leak"
	case NotFreed:
		return "memory not freed at exit"
	}
	return "memory-safety violation"
}
